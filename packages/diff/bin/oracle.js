#!/usr/bin/env node
// The oracle CLI, compiled to dist/ by `npm run build` (run by `npm ci` at the repo root).
// From a checkout without a build: npm run oracle -- ... (runs the sources through tsx).
import { readFileSync } from "node:fs"
import module from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"

// Node older than the package's `engines` (22.12) fails in ways that say nothing: say which Node
// is needed, and stop (imports above are ones Node 20 has too)
const minimum = /(\d+)\.(\d+)/.exec(JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).engines.node)
const [major, minor] = process.versions.node.split(".").map(Number)
if (major < Number(minimum[1]) || (major === Number(minimum[1]) && minor < Number(minimum[2]))) {
  process.stderr.write(`hermetic needs Node ≥ ${minimum[1]}.${minimum[2]} (you have ${process.version})\n`)
  process.exit(1)
}
// Node's own V8 code cache: a start after the first skips parsing and compiling the CLI's modules
module.enableCompileCache?.(join(tmpdir(), "hermetic-compile-cache"))
await import("../dist/cli/main.js")
