// Interleaved in one process: the GET's settled lookup, index (before) vs slot (after), at 1k and 1M rows
import Database from "better-sqlite3"
import { existsSync } from "node:fs"
// the slot function the emulator shipped for a while (runs/SettledRuns.ts settledSlot, dropped: see README.md)
const settledSlot = (namespace: string, runId: string): number => {
  let a = 0x2545f491
  let b = 0x9e3779b9
  for (let i = 0; i < namespace.length; i++) {
    a = Math.imul(a ^ namespace.charCodeAt(i), 0x85ebca6b)
    b = Math.imul(b ^ namespace.charCodeAt(i), 0xc2b2ae35)
  }
  a = Math.imul(a ^ 0x10000, 0x85ebca6b)
  b = Math.imul(b ^ 0x10000, 0xc2b2ae35)
  for (let i = 0; i < runId.length; i++) {
    a = Math.imul(a ^ runId.charCodeAt(i), 0x85ebca6b)
    b = Math.imul(b ^ runId.charCodeAt(i), 0xc2b2ae35)
  }
  a = Math.imul(a ^ (a >>> 15), 0x27d4eb2f) ^ Math.imul(b ^ (b >>> 13), 0x165667b1)
  b = Math.imul(b ^ (b >>> 16), 0x27d4eb2f) ^ Math.imul(a ^ (a >>> 13), 0x165667b1)
  return (b & 0x1fffff) * 0x100000000 + (a >>> 0)
}
const id = (i: number) => "run_" + i.toString(16).padStart(32, "0")
const body = (i: number) => `{"object": "hermes.run", "run_id": "${id(i)}", "status": "completed", "updated_at": 1796191746.555, "created_at": 1796191746.55, "session_id": "${id(i)}", "model": "hermes-agent", "last_event": "run.completed", "output": "[hermetic: the script has no reply for this model call]", "usage": {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}}`
const build = (file: string, n: number, slots: boolean) => {
  if (existsSync(file)) return
  const db = new Database(file); db.pragma("journal_mode = WAL")
  db.exec(`CREATE TABLE settled_runs (namespace TEXT NOT NULL, run_id TEXT NOT NULL, status TEXT NOT NULL, updated_at REAL NOT NULL, body TEXT NOT NULL, PRIMARY KEY (namespace, run_id))`)
  db.exec(`CREATE INDEX settled_runs_expiry ON settled_runs (namespace, status, updated_at)`)
  db.exec(`CREATE TABLE filler (k TEXT PRIMARY KEY, v TEXT)`)
  const ins = db.prepare(slots ? "INSERT INTO settled_runs (rowid, namespace, run_id, status, updated_at, body) VALUES (?, 'default', ?, 'completed', ?, ?)" : "INSERT INTO settled_runs VALUES ('default', ?, 'completed', ?, ?)")
  const fil = db.prepare("INSERT INTO filler VALUES (?, ?)")
  const filler = "x".repeat(1500)
  db.transaction(() => { for (let i = 0; i < n; i++) { if (slots) ins.run(settledSlot("default", id(i)), id(i), 1796191746, body(i)); else ins.run(id(i), 1796191746, body(i)); fil.run("k" + i, filler) } })()
  db.pragma("wal_checkpoint(TRUNCATE)"); db.close()
}
const NOT = `AND NOT (status IN ('completed', 'failed', 'cancelled') AND updated_at < ?)`
const variants: Record<string, [() => unknown, number]> = {}
for (const n of [1000, 1_000_000]) {
  build(`/tmp/lk-rowid-${n}.db`, n, false); build(`/tmp/lk-slot-${n}.db`, n, true)
  const a = new Database(`/tmp/lk-rowid-${n}.db`).prepare(`SELECT status, body FROM settled_runs WHERE namespace = ? AND run_id = ? ${NOT}`)
  const b = new Database(`/tmp/lk-slot-${n}.db`).prepare(`SELECT status, body FROM settled_runs WHERE rowid = ? AND namespace = ? AND run_id = ? ${NOT}`)
  variants[`index ${n}`] = [() => { const r = id(Math.floor(Math.random() * n)); return a.get("default", r, 0) }, n]
  variants[`slot ${n}`] = [() => { const r = id(Math.floor(Math.random() * n)); return b.get(settledSlot("default", r), "default", r, 0) }, n]
}
const res: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]))
for (const [f] of Object.values(variants)) for (let k = 0; k < 200000; k++) if (f() === undefined) throw new Error("miss")
for (let r = 0; r < 11; r++) for (const [k, [f]] of Object.entries(variants)) { const t = process.hrtime.bigint(); for (let j = 0; j < 50000; j++) f(); res[k]!.push(Number(process.hrtime.bigint() - t) / 5e7) }
for (const [k, xs] of Object.entries(res)) { xs.sort((a, b) => a - b); console.log(k.padEnd(14), xs[5]!.toFixed(2), "µs  ", xs.map((x) => x.toFixed(1)).join(" ")) }
