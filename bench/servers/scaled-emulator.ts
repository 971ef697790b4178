/**
 * Bench child: the bundled CLI (`node packages/emulator/dist/hermes-emulator-launcher.cjs serve`, 0.21.0,
 * file storage) holding N settled runs, for the scale bench. This script only drives it: RSS and
 * CPU are the CLI process's own (from /proc), never this script's or a TypeScript loader's.
 *
 * Seeding plays ONE real keyed run through the CLI's HTTP surface, then copies exactly what that
 * run left behind, N times over, with fresh ids, into the CLI's SQLite file over a second
 * connection (WAL: the CLI's connection sees them at its next read), in large transactions: its
 * rows in settled_runs (the settled status, runs/SettledRuns.ts), run_ledger, hermes_sessions and
 * hermes_messages, and the message id counter. A settled run leaves nothing in the process's
 * memory (its status moved to settled_runs), so nothing else is copied. SSE buffers (dropped 300 s
 * after a run's creation) are not copied: this is N runs settled within the last hour.
 * Playing N runs through POST /v1/runs instead would take ~N/400 s for keyed runs (40 min for 1M)
 * and leave the same state; bulk copying takes seconds and puts exactly those rows there.
 *
 * Args: --runs N, and --cpu-prof-dir DIR to run the CLI under V8's CPU profiler (a .cpuprofile in
 * DIR as it exits; bench/tools/prof.sh). Prints `LISTENING <port> <controlPort> <firstRunId> <seedMs> <rssBeforeAnyRun>`;
 * run ids are `run_` + the index in 32 hex digits (scaleRunId), so the parent can address any of
 * them. The control port answers the CLI's CPU time and RSS.
 */
import Database from "better-sqlite3"
import { execa } from "execa"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { createServer as createNetServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { scaleRunId, SCALE_KEY } from "./scaleIds.js"

const { values } = parseArgs({ options: { runs: { type: "string" }, "cpu-prof-dir": { type: "string" } } })
const runs = Number(values.runs ?? 1000)
const dataDir = mkdtempSync(join(tmpdir(), "hermetic-scale-"))
const log = (s: string) => process.stderr.write(`    scale child: ${s}\n`)
const repoRoot = new URL("../..", import.meta.url).pathname

const port = await new Promise<number>((resolve, reject) => {
  const s = createNetServer()
  s.once("error", reject)
  s.listen(0, "127.0.0.1", () => {
    const p = (s.address() as AddressInfo).port
    s.close(() => resolve(p))
  })
})
await execa("node", ["packages/emulator/scripts/bundle.mjs"], { cwd: repoRoot })
const cli = execa(
  "node",
  [
    ...(values["cpu-prof-dir"] === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${values["cpu-prof-dir"]}`]),
    "packages/emulator/dist/hermes-emulator-launcher.cjs",
    "serve",
    "--port",
    String(port),
    "--data-dir",
    dataDir,
    "--hermes-version",
    "0.21.0",
    "--api-key",
    SCALE_KEY,
    "--max-concurrent-runs",
    "0"
  ],
  { cwd: repoRoot, reject: false, stdin: "ignore" }
)
const base = `http://127.0.0.1:${port}`
for (let i = 0; ; i++) {
  if (i > 30_000) throw new Error("the bundled CLI did not answer /health within 60 s")
  try {
    if ((await fetch(`${base}/health`)).status === 200) break
  } catch {
    // not listening yet
  }
  await new Promise((resolve) => setTimeout(resolve, 2))
}
const pid = cli.pid ?? 0
/** The CLI's resident set (VmRSS) and CPU time (utime + stime, 10 ms ticks), from /proc; its V8 heap is not visible from here, so none is reported. */
const cliUsage = () => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return { cpuMicros: (Number(fields[11]) + Number(fields[12])) * 10_000, rss }
}
const headers = { authorization: `Bearer ${SCALE_KEY}`, "idempotency-key": "template-run" }

// the process before any run: what the emulator costs empty
const baselineRss = cliUsage().rss

// 1. one real keyed run, played to completion
const { run_id: template } = (await (await fetch(`${base}/v1/runs`, { method: "POST", headers, body: JSON.stringify({ input: "hi" }) })).json()) as {
  run_id: string
}
for (let i = 0; i < 2000; i++) {
  const r = (await (await fetch(`${base}/v1/runs/${template}`, { headers })).json()) as { status?: string }
  if (r.status === "completed") break
  await new Promise((resolve) => setTimeout(resolve, 2))
}

// 2. its rows, read back from the file
const t0 = performance.now()
const db = new Database(join(dataDir, "hermetic-emulator.db"))
db.pragma("journal_mode = WAL")
type Row = Record<string, unknown>
const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name))
const TEMPLATE_ROWS: ReadonlyArray<readonly [string, string]> = [
  ["settled_runs", "run_id"],
  ["run_ledger", "run_id"],
  ["hermes_sessions", "id"],
  ["hermes_messages", "session_id"]
]
const copied = TEMPLATE_ROWS.filter(([t]) => tables.has(t)).map(([table, col]) => {
  const rows = db.prepare(`SELECT * FROM ${table} WHERE ${col} = ?`).all(template) as Array<Row>
  const first = rows[0]
  const cols = first === undefined ? [] : Object.keys(first)
  const stmt = first === undefined ? undefined : db.prepare(`INSERT INTO ${table} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`)
  return { table, rows, cols, stmt }
})
log(`the played run left: ${copied.map((c) => `${c.rows.length} ${c.table}`).join(", ")}`)
const swap = (v: unknown, id: string): unknown => (typeof v === "string" && v.includes(template) ? v.replaceAll(template, id) : v)
let nextMessageId = Number((db.prepare("SELECT MAX(id) AS m FROM hermes_messages").get() as { m: number | null }).m ?? 0) + 1
const insertBatch = db.transaction((from: number, to: number) => {
  for (let i = from; i < to; i++) {
    const id = scaleRunId(i)
    for (const c of copied) {
      if (c.stmt === undefined) continue
      for (const row of c.rows) {
        c.stmt.run(
          c.cols.map((col) =>
            c.table === "hermes_messages" && col === "id" ? nextMessageId++ : c.table === "run_ledger" && col === "idempotency_key" ? `seed-${i}` : swap(row[col], id)
          )
        )
      }
    }
  }
})
const BATCH = 50_000
for (let from = 0; from < runs; from += BATCH) {
  insertBatch(from, Math.min(runs, from + BATCH))
  if (runs >= 200_000) log(`rows for ${Math.min(runs, from + BATCH)} of ${runs} runs`)
}
if (tables.has("hermes_message_seq")) db.prepare("UPDATE hermes_message_seq SET last_id = ? WHERE namespace = 'default'").run(nextMessageId - 1)
db.pragma("wal_checkpoint(TRUNCATE)")
db.close()

const seedMs = performance.now() - t0
log(`seeded ${runs} runs in ${(seedMs / 1000).toFixed(1)} s`)

const control = await new Promise<number>((resolve) => {
  const server = http.createServer((_req, res) => res.end(JSON.stringify(cliUsage())))
  server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))
})
const stop = () => {
  cli.kill("SIGTERM")
  void Promise.race([cli, new Promise((resolve) => setTimeout(resolve, 5000))]).finally(() => {
    // the seeded store is this child's alone: it goes with it (each run left one in the temp dir)
    rmSync(dataDir, { recursive: true, force: true })
    process.exit(0)
  })
}
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
process.stdout.write(`LISTENING ${port} ${control} ${scaleRunId(0)} ${seedMs.toFixed(0)} ${baselineRss}\n`)
