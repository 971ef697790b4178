/**
 * source-lock.json (the pins and their sources): the package's own copy when installed (put there
 * by `npm pack`, see package.json's prepack), the repository's in a checkout. The diff package
 * ships its own copy so that its offline commands need no oracle runner to know the default pin.
 */
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

export const sourceLockPath = (): string => {
  // src/evidence and dist/evidence are two levels under the package, four under the repository
  const packaged = fileURLToPath(new URL("../../source-lock.json", import.meta.url))
  return existsSync(packaged) ? packaged : fileURLToPath(new URL("../../../../source-lock.json", import.meta.url))
}
