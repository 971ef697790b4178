/**
 * Bench child: the reference a fast hand-written server would be — bare node:http and
 * better-sqlite3 doing the same work as the emulator per request: GET answers a run status held in
 * memory (upstream and the emulator both keep statuses in process memory); a keyed POST runs the
 * same ledger statements (prune, lookup, insert in one transaction; then the status updates for
 * running and completed), a keyless POST none. Prints `LISTENING <port> <controlPort> <runId>`.
 */
import Database from "better-sqlite3"
import { randomBytes } from "node:crypto"
import { mkdtempSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startControl } from "./control.js"

const KEY = "bench-key-0123456789abcdef"
const db = new Database(join(mkdtempSync(join(tmpdir(), "hermetic-bare-")), "bare.db"))
db.pragma("journal_mode = WAL")
db.exec(`CREATE TABLE run_ledger (namespace TEXT, scope TEXT, idempotency_key TEXT, fingerprint TEXT, run_id TEXT,
  status_json TEXT, status TEXT, owner TEXT, created_at REAL, updated_at REAL, PRIMARY KEY (namespace, scope, idempotency_key))`)
db.exec(`CREATE UNIQUE INDEX run_ledger_run ON run_ledger (namespace, run_id)`)
const prune = db.prepare(`DELETE FROM run_ledger WHERE namespace = ? AND updated_at < ? AND status IN ('completed','failed','cancelled','interrupted')`)
const lookup = db.prepare(`SELECT * FROM run_ledger WHERE namespace = ? AND scope = ? AND idempotency_key = ?`)
const insert = db.prepare(`INSERT INTO run_ledger VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
const update = db.prepare(`UPDATE run_ledger SET status_json = ?, status = ?, updated_at = ? WHERE namespace = ? AND run_id = ?`)
const admit = db.transaction((key: string, fingerprint: string, runId: string, record: string, now: number) => {
  prune.run("default", now - 86400)
  const row = lookup.get("default", "scope", key)
  if (row !== undefined) return false
  insert.run("default", "scope", key, fingerprint, runId, record, "queued", "owner", now, now)
  return true
})
const statuses = new Map<string, Record<string, unknown>>()
const newRun = (body: Record<string, unknown>) => {
  const runId = `run_${randomBytes(16).toString("hex")}`
  const now = Date.now() / 1000
  const record = { object: "hermes.run", run_id: runId, status: "queued", updated_at: now, created_at: now, session_id: body["session_id"] ?? runId, model: body["model"] ?? "hermes-agent" }
  statuses.set(runId, record)
  return record
}
const settle = (runId: string, keyed: boolean) =>
  setImmediate(() => {
    const record = statuses.get(runId)
    if (record === undefined) return
    for (const status of ["running", "completed"]) {
      record["status"] = status
      record["updated_at"] = Date.now() / 1000
      if (keyed) update.run(JSON.stringify(record), status, record["updated_at"], "default", runId)
    }
  })
const json = (res: http.ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) })
  res.end(text)
}
const server = http.createServer((req, res) => {
  const chunks: Array<Buffer> = []
  req.on("data", (c: Buffer) => chunks.push(c))
  req.on("end", () => {
    if (req.headers.authorization !== `Bearer ${KEY}`) return json(res, 401, { error: { message: "Invalid API key" } })
    if (req.method === "GET" && req.url?.startsWith("/v1/runs/")) {
      const record = statuses.get(req.url.slice("/v1/runs/".length))
      return record === undefined ? json(res, 404, { error: { code: "run_not_found" } }) : json(res, 200, record)
    }
    if (req.method === "POST" && req.url === "/v1/runs") {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>
      if (!body["input"]) return json(res, 400, { error: { message: "Missing 'input' field" } })
      const key = String(req.headers["idempotency-key"] ?? "").trim()
      const record = newRun(body)
      const runId = String(record["run_id"])
      if (key !== "") admit(key, JSON.stringify(body), runId, JSON.stringify(record), Date.now() / 1000)
      settle(runId, key !== "")
      return json(res, 202, { run_id: runId, status: "started", replayed: false })
    }
    json(res, 404, {})
  })
})
server.listen(0, "127.0.0.1", async () => {
  const seeded = newRun({ input: "seed" })
  const control = await startControl()
  process.stdout.write(`LISTENING ${(server.address() as AddressInfo).port} ${control} ${String(seeded["run_id"])}\n`)
})
