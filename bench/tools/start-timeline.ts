// Where a start of the bundled CLI spends its time: runs a copy of dist/hermes-emulator-launcher.cjs
// with timestamps (ms since the process began, performance.now()) at the launcher's first line,
// after reading the code cache, after compiling the bundle with it, after evaluating the bundle (its
// top level, and the start as far as it runs synchronously), at 'listening', and at the first
// request; N starts to the first 200 of /health, medians of each mark. The built package (npm run build).
//   node --import tsx bench/tools/start-timeline.ts [starts]
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import { spread } from "../stats.js"
import { untilHealthy } from "./accepts.js"

const root = fileURLToPath(new URL("../../", import.meta.url))
const dist = join(root, "packages/emulator/dist")
let src = readFileSync(join(dist, "hermes-emulator-launcher.cjs"), "utf8")
const edit = (from: string, to: string) => {
  if (!src.includes(from)) throw new Error(`the launcher changed: '${from}' not found`)
  src = src.replace(from, to)
}
edit('"use strict"\n', `"use strict"
const T = [["launcher", performance.now()]]
process.on("SIGTERM", () => { process.stderr.write("TIMELINE " + JSON.stringify(T) + "\\n"); process.exit(0) })
`)
edit("const script = new Script", 'T.push(["cache read", performance.now()])\nconst script = new Script')
edit("if (cachedData === undefined ||", 'T.push(["compiled", performance.now()])\nif (cachedData === undefined ||')
src += `T.push(["evaluated", performance.now()])
const http = require("node:http")
const emit = http.Server.prototype.emit
let first = true
http.Server.prototype.emit = function (event, ...args) {
  if (event === "listening") T.push(["listening", performance.now()])
  if (event === "request" && first) { first = false; T.push(["first request", performance.now()]) }
  return emit.call(this, event, ...args)
}
`
// beside the real launcher: the bundle is given the launcher's own require, which resolves from there
const launcher = join(dist, ".timed-launcher.cjs")
writeFileSync(launcher, src)

const Timeline = Schema.parseJson(Schema.Array(Schema.Tuple(Schema.String, Schema.Number)))
const start = async (port: number) => {
  const data = mkdtempSync(join(tmpdir(), "hermetic-cold-"))
  const child = spawn("node", [launcher, "serve", "--port", String(port), "--data-dir", data, "--api-key", "bench-key-0123456789abcdef"], { stdio: ["ignore", "ignore", "pipe"] })
  let err = ""
  child.stderr.on("data", (c: Buffer) => { err += String(c) })
  await untilHealthy(port)
  child.kill("SIGTERM")
  await new Promise((r) => child.once("exit", r))
  rmSync(data, { recursive: true, force: true })
  const line = err.split("\n").find((l) => l.startsWith("TIMELINE "))
  if (line === undefined) throw new Error(`no TIMELINE line on the launcher's stderr: ${err.slice(-500)}`)
  return Schema.decodeUnknownSync(Timeline)(line.slice("TIMELINE ".length))
}
const n = Number(process.argv[2] ?? 11)
const port = 19000 + Math.floor(Math.random() * 1000)
try {
  await start(port) // writes the code cache for this launcher's command
  const runs = []
  for (let i = 0; i < n; i++) runs.push(await start(port + 1 + i))
  console.log(`${n} starts; ms since the process began, medians (and the step from the mark before)`)
  let prev = 0
  for (const [i, [mark]] of (runs[0] ?? []).entries()) {
    const at = spread(runs.flatMap((r) => { const m = r[i]; return m === undefined ? [] : [m[1]] })).median
    console.log(`${mark.padEnd(14)} ${at.toFixed(1).padStart(6)}  (+${(at - prev).toFixed(1)})`)
    prev = at
  }
} finally {
  rmSync(launcher, { force: true })
}
