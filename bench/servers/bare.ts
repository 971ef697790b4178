/**
 * Bench child: the reference a fast hand-written server would be — bare node:http and
 * better-sqlite3 doing the same SQL work per request as the emulator (read from routes/runs/*,
 * runs/* and sessions/AgentTurnRecord.ts):
 * - GET of a settled run reads its stored status bytes from settled_runs (primary key, the 1 h
 *   expiry in the query) and answers them as they are; at most once a minute it first deletes the
 *   expired ones (the emulator's runs/SettledRuns.ts since settled statuses left live memory). A
 *   live run's status is in memory.
 * - POST with an Idempotency-Key runs the ledger admission (prune, lookup, insert in one
 *   transaction), then the status updates for running and completed (0.21.0 ledger); a keyless
 *   POST none of these.
 * - A run that settles writes its status to settled_runs (INSERT OR REPLACE) and leaves memory.
 * - Every POST then records the agent turn in state.db the way the emulator's recordAgentTurn
 *   does for a one-reply turn, in one transaction: session upsert (system prompt included), one
 *   block of message ids (bump + read), one two-row message insert, one counter update — 5 statements.
 * Same tables and indexes (the emulator's own DDL), same WAL journal and synchronous=NORMAL. Prints
 * `LISTENING <port> <controlPort> <runId>`.
 * `--burn-micros N` (bench/calibrate.ts) adds N µs of pure computation to every request before it
 * is answered: a busy loop on the monotonic clock, allocating nothing.
 */
import Database from "better-sqlite3"
import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { STORAGE_SCHEMA } from "../../packages/emulator/src/StorageSchema.js"
import { startControl } from "./control.js"

const { values } = parseArgs({ options: { "burn-micros": { type: "string" } } })
const BURN_MS = Number(values["burn-micros"] ?? 0) / 1000
const burn = () => {
  if (BURN_MS <= 0) return
  const until = performance.now() + BURN_MS
  while (performance.now() < until);
}

const KEY = "bench-key-0123456789abcdef"
const NS = "default"
const REPLY = "[hermetic: the script has no reply for this model call]"
const db = new Database(join(mkdtempSync(join(tmpdir(), "hermetic-bare-")), "bare.db"))
db.pragma("journal_mode = WAL")
db.pragma("synchronous = NORMAL")
for (const ddl of STORAGE_SCHEMA.statements) db.exec(ddl)

const prune = db.prepare(`DELETE FROM run_ledger WHERE namespace = ? AND updated_at < ? AND status IN ('completed','failed','cancelled','interrupted')`)
const lookup = db.prepare(`SELECT scope, idempotency_key, fingerprint, run_id, status_json, status, owner, updated_at FROM run_ledger WHERE namespace = ? AND scope = ? AND idempotency_key = ?`)
const insert = db.prepare(`INSERT INTO run_ledger (namespace, scope, idempotency_key, fingerprint, run_id, status_json, status, owner, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
const update = db.prepare(`UPDATE run_ledger SET status_json = ?, status = ?, updated_at = ? WHERE namespace = ? AND run_id = ?`)
const admit = db.transaction((scope: string, key: string, fingerprint: string, runId: string, record: string, now: number) => {
  prune.run(NS, now - 86400)
  const row = lookup.get(NS, scope, key)
  if (row !== undefined) return false
  insert.run(NS, scope, key, fingerprint, runId, record, "queued", "owner", now, now)
  return true
})

const upsertSession = db.prepare(`INSERT INTO hermes_sessions (namespace, id, source, model, model_config, system_prompt, parent_session_id, started_at)
  VALUES (?, ?, 'api_server', 'hermetic-fake-model', '{}', 'prompt', NULL, ?)
  ON CONFLICT (namespace, id) DO UPDATE SET model = COALESCE(hermes_sessions.model, excluded.model),
    model_config = COALESCE(hermes_sessions.model_config, excluded.model_config),
    system_prompt = excluded.system_prompt`)
const reserveIds = db.prepare(`INSERT INTO hermes_message_seq (namespace, last_id) VALUES (?, 2) ON CONFLICT (namespace) DO UPDATE SET last_id = last_id + 2`)
const readSeq = db.prepare(`SELECT last_id FROM hermes_message_seq WHERE namespace = ?`)
const insertMessages = db.prepare(`INSERT INTO hermes_messages (namespace, id, session_id, role, content, tool_call_id, tool_calls, tool_name,
  timestamp, token_count, finish_reason, reasoning, reasoning_content) VALUES
  (?, ?, ?, 'user', ?, NULL, NULL, NULL, ?, NULL, NULL, NULL, NULL),
  (?, ?, ?, 'assistant', ?, NULL, NULL, NULL, ?, NULL, 'stop', NULL, NULL)`)
const countTurn = db.prepare(`UPDATE hermes_sessions SET message_count = message_count + 2, tool_call_count = tool_call_count + 0,
  input_tokens = input_tokens + 0, output_tokens = output_tokens + 0,
  estimated_cost_usd = COALESCE(estimated_cost_usd, 0) + 0.0,
  model = CASE WHEN api_call_count = 0 THEN 'hermetic-fake-model' ELSE COALESCE(model, 'hermetic-fake-model') END,
  api_call_count = api_call_count + 1 WHERE namespace = ? AND id = ?`)
const recordTurn = db.transaction((sessionId: string, userText: string, now: number) => {
  upsertSession.run(NS, sessionId, now)
  reserveIds.run(NS)
  const { last_id: last } = readSeq.get(NS) as { last_id: number }
  insertMessages.run(NS, last - 1, sessionId, userText, now, NS, last, sessionId, REPLY, now)
  countTurn.run(NS, sessionId)
})

const saveSettled = db.prepare(`INSERT OR REPLACE INTO settled_runs (namespace, run_id, status, updated_at, body) VALUES (?, ?, ?, ?, ?)`)
const loadSettled = db.prepare(`SELECT status, body FROM settled_runs WHERE namespace = ? AND run_id = ?
  AND NOT (status IN ('completed', 'failed', 'cancelled') AND updated_at < ?)`)
const sweepSettled = db.prepare(`DELETE FROM settled_runs WHERE namespace = ? AND status IN ('completed', 'failed', 'cancelled') AND updated_at < ?`)
let lastSweep = Number.NEGATIVE_INFINITY

const statuses = new Map<string, Record<string, unknown>>()
const newRun = (body: Record<string, unknown>) => {
  const runId = `run_${randomBytes(16).toString("hex")}`
  const now = Date.now() / 1000
  const record = { object: "hermes.run", run_id: runId, status: "queued", updated_at: now, created_at: now, session_id: body["session_id"] ?? runId, model: body["model"] ?? "hermes-agent" }
  statuses.set(runId, record)
  return record
}
const settle = (runId: string, userText: string, keyed: boolean) =>
  setImmediate(() => {
    const record = statuses.get(runId)
    if (record === undefined) return
    record["status"] = "running"
    record["updated_at"] = Date.now() / 1000
    if (keyed) update.run(JSON.stringify(record), "running", record["updated_at"], NS, runId)
    recordTurn(String(record["session_id"]), userText, Date.now() / 1000)
    Object.assign(record, { status: "completed", updated_at: Date.now() / 1000, last_event: "run.completed", output: REPLY, usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } })
    if (keyed) update.run(JSON.stringify(record), "completed", record["updated_at"], NS, runId)
    saveSettled.run(NS, runId, "completed", record["updated_at"], JSON.stringify(record))
    statuses.delete(runId)
  })
const json = (res: http.ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) })
  res.end(text)
}
const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex")
const SCOPE = sha256(`default\0${KEY}`)
const server = http.createServer((req, res) => {
  const chunks: Array<Buffer> = []
  req.on("data", (c: Buffer) => chunks.push(c))
  req.on("end", () => {
    burn()
    if (req.headers.authorization !== `Bearer ${KEY}`) return json(res, 401, { error: { message: "Invalid API key" } })
    if (req.method === "GET" && req.url?.startsWith("/v1/runs/")) {
      const runId = req.url.slice("/v1/runs/".length)
      const now = Date.now() / 1000
      if (now - lastSweep >= 60) {
        lastSweep = now
        sweepSettled.run(NS, now - 3600)
      }
      const record = statuses.get(runId)
      if (record !== undefined) return json(res, 200, record)
      const settled = loadSettled.get(NS, runId, now - 3600) as { body: string } | undefined
      if (settled === undefined) return json(res, 404, { error: { code: "run_not_found" } })
      res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(settled.body) })
      return res.end(settled.body)
    }
    if (req.method === "POST" && req.url === "/v1/runs") {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>
      if (!body["input"]) return json(res, 400, { error: { message: "Missing 'input' field" } })
      const key = String(req.headers["idempotency-key"] ?? "").trim()
      const record = newRun(body)
      const runId = String(record["run_id"])
      if (key !== "") admit(SCOPE, key, sha256(JSON.stringify({ body, gateway_session_key: "" })), runId, JSON.stringify(record), Date.now() / 1000)
      settle(runId, String(body["input"]), key !== "")
      return json(res, 202, { run_id: runId, status: "started", replayed: false })
    }
    json(res, 404, {})
  })
})
server.listen(0, "127.0.0.1", async () => {
  const seeded = newRun({ input: "seed" })
  settle(String(seeded["run_id"]), "seed", false)
  const control = await startControl()
  process.stdout.write(`LISTENING ${(server.address() as AddressInfo).port} ${control} ${String(seeded["run_id"])}\n`)
})
