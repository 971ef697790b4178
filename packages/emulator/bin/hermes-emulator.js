#!/usr/bin/env node
// Runs the CLI from dist/: its one-file bundle (fast cold start) when present, else tsc's output.
// In a repository checkout (tsconfig.build.json beside this folder; never published) whose sources
// are newer than the build, it runs the sources through tsx instead (tsx is a dev dependency of the
// repository), so an edited checkout never runs stale code. An installed package never does.
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
// the bundle holds the workspace's Script engine too: its sources count as well
const sources = [`${root}src`, `${root}../script/src`].filter((dir) => existsSync(dir))
if (checkout && (!existsSync(built) || statSync(built).mtimeMs < Math.max(...sources.map(newestSource)))) {
  // a child node, because workspace imports (@hermetic/script) must resolve to their sources too,
  // which only the --conditions flag of a new process can say; signals are passed on
  const { spawn } = await import("node:child_process")
  const child = spawn(
    process.execPath,
    ["--conditions=@hermetic/source", "--import", "tsx", `${root}src/cli/main.ts`, ...process.argv.slice(2)],
    { stdio: "inherit" }
  )
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal))
  child.on("exit", (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)))
} else {
  await import(built)
}
