/**
 * How a test starts a CLI as its own process: `node ARGS...`. The built bin (what `npm ci` builds
 * and users run) when every workspace package the CLI loads has a dist/ newer than all of its
 * sources; else the sources through tsx, so an edited checkout never tests stale code. A start
 * through tsx transforms the CLI's sources in every child (about a second of CPU each, several
 * on a loaded machine); the built bin runs Node's own compile cache instead.
 */
import { existsSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"

const packages = new URL("../../packages/", import.meta.url).pathname

/** The CLIs and the workspace packages each one loads (its own first). */
const CLIS = {
  oracle: { bin: "diff/bin/oracle.js", main: "diff/src/cli/main.ts", loads: ["diff", "emulator", "oracle-runner", "script"] },
  "hermes-emulator": { bin: "emulator/bin/hermes-emulator.cjs", main: "emulator/src/cli/main.ts", loads: ["emulator", "script"] }
} as const

const newest = (dir: string): number => {
  let n = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    n = Math.max(n, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return n
}

/** tsc -b rewrites a project's .tsbuildinfo on every build of it: its age is the build's. */
const builtAfterSources = (pkg: string): boolean => {
  const info = join(packages, pkg, "dist", ".tsbuildinfo")
  return existsSync(info) && statSync(info).mtimeMs >= newest(join(packages, pkg, "src"))
}

/** The node arguments that start `cli` (append the CLI's own arguments). */
export const cliEntry = (cli: keyof typeof CLIS): ReadonlyArray<string> => {
  const { bin, main, loads } = CLIS[cli]
  return loads.every(builtAfterSources) ? [join(packages, bin)] : ["--conditions=@hermetic/source", "--import", "tsx", join(packages, main)]
}
