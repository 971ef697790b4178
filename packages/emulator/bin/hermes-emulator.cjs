#!/usr/bin/env node
// Runs the CLI from dist/: its one-file bundle through its launcher (fast cold start) when present,
// else tsc's output. In a repository checkout (tsconfig.build.json beside this folder; never
// published) whose sources are newer than the build, it runs the sources through tsx instead (tsx is
// a dev dependency of the repository), so an edited checkout never runs stale code. An installed
// package never does. CommonJS, like the launcher: a start never sets up Node's ESM loader.
"use strict"
const { existsSync, readdirSync, readFileSync, statSync } = require("node:fs")
const { join } = require("node:path")
const { pathToFileURL } = require("node:url")

// Node older than the package's `engines` (22.12) fails in ways that say nothing (on Node 20 the
// prebuilt SQLite addon crashed with a segmentation fault): say which Node is needed, and stop.
const minimum = /(\d+)\.(\d+)/.exec(JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")).engines.node)
const [major, minor] = process.versions.node.split(".").map(Number)
if (major < Number(minimum[1]) || (major === Number(minimum[1]) && minor < Number(minimum[2]))) {
  process.stderr.write(`hermetic needs Node ≥ ${minimum[1]}.${minimum[2]} (you have ${process.version})\n`)
  process.exit(1)
}

const root = join(__dirname, "..")
const launcher = join(root, "dist", "hermes-emulator-launcher.cjs")
const bundled = existsSync(launcher)
const built = bundled ? join(root, "dist", "hermes-emulator.cjs") : join(root, "dist", "cli", "main.js")

const newestSource = (dir) => {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }
  return newest
}

const checkout = existsSync(join(root, "tsconfig.build.json"))
// the bundle holds the workspace's Script engine too: its sources count as well
const sources = [join(root, "src"), join(root, "..", "script", "src")].filter((dir) => existsSync(dir))
if (checkout && (!existsSync(built) || statSync(built).mtimeMs < Math.max(...sources.map(newestSource)))) {
  // a child node, because workspace imports (@hermetic/script) must resolve to their sources too,
  // which only the --conditions flag of a new process can say; signals are passed on
  const { spawn } = require("node:child_process")
  const child = spawn(
    process.execPath,
    ["--conditions=@hermetic/source", "--import", "tsx", join(root, "src", "cli", "main.ts"), ...process.argv.slice(2)],
    { stdio: "inherit" }
  )
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal))
  child.on("exit", (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)))
} else if (bundled) {
  require(launcher)
} else {
  // Node's own V8 code cache for tsc's output (the bundle's launcher sets it up the same way)
  require("node:module").enableCompileCache?.(join(require("node:os").tmpdir(), "hermetic-compile-cache"))
  import(pathToFileURL(built).href)
}
