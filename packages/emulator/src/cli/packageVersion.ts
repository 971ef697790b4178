/** The version of the package a CLI file belongs to, from the nearest package.json of that name above it. */
import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

// Walks up rather than using a fixed path: the same code runs from src/, dist/ and the one-file bundle.
export const packageVersion = (name: string, fromUrl: string): string => {
  for (let dir = dirname(fileURLToPath(fromUrl)); ; dir = dirname(dir)) {
    const file = join(dir, "package.json")
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string }
      if (manifest.name === name && manifest.version !== undefined) return manifest.version
    }
    if (dirname(dir) === dir) return "unknown"
  }
}
