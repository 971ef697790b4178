#!/usr/bin/env node
// Starts the CLI from its bundle (dist/, built by `npm ci` through the root `prepare` script) when
// the bundle is at least as new as every source file; otherwise runs the TypeScript sources
// through tsx, so an edited checkout never runs stale code.
import { existsSync, readdirSync, statSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const bundle = `${root}dist/hermes-emulator.mjs`

const newestSource = (dir) => {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }
  return newest
}

if (existsSync(bundle) && statSync(bundle).mtimeMs >= newestSource(`${root}src`)) {
  await import(bundle)
} else {
  const { register } = await import("tsx/esm/api")
  register()
  await import("../src/cli/main.ts")
}
