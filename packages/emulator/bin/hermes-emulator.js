#!/usr/bin/env node
// Runs the CLI from dist/: its one-file bundle (fast cold start) when present, else tsc's output.
// In a repository checkout (tsconfig.build.json beside this folder; never published) whose sources
// are newer than the build, it runs the sources through tsx instead, so an edited checkout never
// runs stale code. An installed package never loads a TypeScript loader.
import { existsSync, readdirSync, statSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const bundle = `${root}dist/hermes-emulator.mjs`
const built = existsSync(bundle) ? bundle : `${root}dist/cli/main.js`

const newestSource = (dir) => {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }
  return newest
}

const checkout = existsSync(`${root}tsconfig.build.json`)
if (checkout && (!existsSync(built) || statSync(built).mtimeMs < newestSource(`${root}src`))) {
  const { register } = await import("tsx/esm/api")
  register()
  await import("../src/cli/main.ts")
} else {
  await import(built)
}
