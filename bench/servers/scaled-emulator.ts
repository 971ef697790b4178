/**
 * Bench child: the emulator (0.21.0, file storage) holding N settled runs, for the scale bench.
 *
 * Seeding plays ONE real keyed run through the emulator's HTTP surface, then copies exactly what
 * that run left behind, N times over, with fresh ids:
 * - in the SQLite file, bulk-inserted over a second connection in large transactions: its rows in
 *   settled_runs (the settled status, runs/SettledRuns.ts), run_ledger, hermes_sessions and
 *   hermes_messages, and the message id counter;
 * - in process memory, whatever the run left in the emulator's GatewayState (`runStatuses`,
 *   `keyedRuns`), as new objects of the same keys, types and order — since the emulator moved
 *   settled statuses to settled_runs, a settled run leaves nothing there.
 * SSE buffers (dropped 300 s after a run's creation) are not copied: this is N runs settled
 * within the last hour.
 * Playing N runs through POST /v1/runs instead would take ~N/400 s for keyed runs (40 min for 1M)
 * and leave the same state; bulk copying takes seconds and puts exactly those rows and objects there.
 *
 * Args: --runs N. Prints `LISTENING <port> <controlPort> <firstRunId> <seedMs> <rssBeforeAnyRun>`; run ids are
 * `run_` + the index in 32 hex digits (scaleRunId), so the parent can address any of them.
 */
import Database from "better-sqlite3"
import { ManagedRuntime } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { Emulator, layer } from "../../packages/emulator/src/Emulator.js"
import { PyFloat } from "../../packages/emulator/src/python/index.js"
import { listen } from "../../packages/emulator/src/http/NodeAdapter.js"
import { Gateways } from "../../packages/emulator/src/runs/GatewayState.js"
import { startControl } from "./control.js"
import { scaleRunId, SCALE_KEY } from "./scaleIds.js"

const { values } = parseArgs({ options: { runs: { type: "string" } } })
const runs = Number(values.runs ?? 1000)
const dataDir = mkdtempSync(join(tmpdir(), "hermetic-scale-"))
const log = (s: string) => process.stderr.write(`    scale child: ${s}\n`)

const runtime = ManagedRuntime.make(layer({ apiKey: SCALE_KEY, hermesVersion: "0.21.0", dataDir, maxConcurrentRuns: 0 }))
const emulator = await runtime.runPromise(Emulator)
const gateways = await runtime.runPromise(Gateways)
const server = await listen(emulator.respondStreaming, emulator.runtime, "127.0.0.1", 0)
const base = `http://127.0.0.1:${server.port}`
const headers = { authorization: `Bearer ${SCALE_KEY}`, "idempotency-key": "template-run" }

// the process before any run: what the emulator costs empty (after a full GC when --expose-gc)
const gc = (globalThis as { gc?: () => void }).gc
gc?.()
const baselineRss = process.memoryUsage().rss

// 1. one real keyed run, played to completion
const { run_id: template } = (await (await fetch(`${base}/v1/runs`, { method: "POST", headers, body: JSON.stringify({ input: "hi" }) })).json()) as {
  run_id: string
}
for (let i = 0; i < 2000; i++) {
  const r = (await (await fetch(`${base}/v1/runs/${template}`, { headers })).json()) as { status?: string }
  if (r.status === "completed") break
  await new Promise((resolve) => setTimeout(resolve, 2))
}
const gw = gateways.get("default")
// where the played run's status lives now: live memory (older emulators kept settled statuses
// there) or the settled_runs table (runs/SettledRuns.ts) — whatever it left is what gets copied
const templateRecord = gw.runStatuses.get(template)

// 2. its rows, read back from the file
const t0 = performance.now()
const db = new Database(emulator.config.sqliteFilename)
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
log(`the played run left: ${copied.map((c) => `${c.rows.length} ${c.table}`).join(", ")}${templateRecord === undefined ? "" : ", a status in live memory"}`)
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

// 3. statuses the played run left in live memory, if any, as new objects of the same shape
const copy = (v: unknown, id: string): unknown => {
  if (v instanceof PyFloat) return new PyFloat(v.value)
  if (Array.isArray(v)) return v.map((x) => copy(x, id))
  if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x, id)]))
  return swap(v, id)
}
const keyed = gw.keyedRuns.get(template)
if (templateRecord !== undefined || keyed !== undefined) {
  for (let i = 0; i < runs; i++) {
    const id = scaleRunId(i)
    if (templateRecord !== undefined) gw.runStatuses.set(id, copy(templateRecord, id) as Record<string, unknown>)
    if (keyed !== undefined) gw.keyedRuns.set(id, keyed)
  }
}
const seedMs = performance.now() - t0
log(`seeded ${runs} runs in ${(seedMs / 1000).toFixed(1)} s`)

const control = await startControl()
const stop = () =>
  void server
    .close()
    .then(() => runtime.dispose())
    .finally(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
process.stdout.write(`LISTENING ${server.port} ${control} ${scaleRunId(0)} ${seedMs.toFixed(0)} ${baselineRss}\n`)
