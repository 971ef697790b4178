/**
 * What `PRAGMA quick_check` at start costs on a grown data dir: a SQLite file with the emulator's
 * own tables (StorageSchema.ts) holding N sessions with their messages, N/10 jobs and N/10 stored
 * responses, rows shaped as the routes write them. Reports the file size, the open (with the
 * schema) alone, quick_check and integrity_check, and a whole emulator start (`startEmulator`) on
 * the data dir after a clean stop and after an unclean one (the write-ahead log left: the start
 * then runs quick_check), each the median of several runs on a warm page cache (a cold disk adds
 * its read time to both the check and the first requests alike).
 *
 *   node --conditions=@hermetic/source --import tsx bench/quick-check.ts [--sessions N] [--runs R]
 */
import Database from "better-sqlite3"
import { mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { startEmulator } from "../packages/emulator/src/index.js"
import { STORAGE_SCHEMA } from "../packages/emulator/src/StorageSchema.js"
import { percentile } from "./stats.js"

const { values } = parseArgs({ options: { sessions: { type: "string", default: "10000" }, runs: { type: "string", default: "7" } } })
const sessions = Number(values.sessions)
const runs = Number(values.runs)

const dir = mkdtempSync(join(tmpdir(), "hermetic-quick-check-"))
const file = join(dir, "hermetic-emulator.db")

const seed = () => {
  const db = new Database(file)
  db.pragma("journal_mode = WAL")
  for (const ddl of STORAGE_SCHEMA.statements) db.prepare(ddl).run()
  const session = db.prepare(
    `INSERT INTO hermes_sessions (namespace, id, source, model, system_prompt, parent_session_id, started_at, message_count, title) VALUES ('default', ?, 'api_server', 'hermes-agent', ?, ?, ?, 4, ?)`
  )
  const message = db.prepare(`INSERT INTO hermes_messages (namespace, id, session_id, role, content, timestamp) VALUES ('default', ?, ?, ?, ?, ?)`)
  const job = db.prepare(`INSERT INTO cron_jobs (namespace, seq, id, job_json) VALUES ('default', ?, ?, ?)`)
  const response = db.prepare(`INSERT INTO stored_responses (namespace, response_id, data, accessed_at, access_seq) VALUES ('default', ?, ?, ?, ?)`)
  const text = (i: number, n: number) => `message ${i} `.padEnd(n, "lorem ipsum dolor sit amet ")
  let messageId = 0
  db.transaction(() => {
    for (let i = 0; i < sessions; i++) {
      // every fifth session continues the one before it (a compression chain)
      session.run(`s-${i}`, text(i, 400), i % 5 === 0 || i === 0 ? null : `s-${i - 1}`, 1_700_000_000 + i, `Session ${i}`)
      for (const role of ["user", "assistant", "user", "assistant"]) message.run(++messageId, `s-${i}`, role, text(messageId, 300), 1_700_000_000 + i)
    }
    for (let i = 0; i < sessions / 10; i++) {
      job.run(i + 1, `job${i}`, JSON.stringify({ id: `job${i}`, name: `job ${i}`, prompt: text(i, 200), schedule: { kind: "interval", minutes: 60 } }))
      response.run(`resp_${i}`, JSON.stringify({ response: { id: `resp_${i}`, output: text(i, 600) }, conversation_history: [] }), 1_700_000_000 + i, i)
    }
  })()
  db.close()
}

/** Milliseconds of `f`, median and p90 over the runs. */
const time = async (f: () => void | Promise<void>) => {
  const samples: Array<number> = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    await f()
    samples.push(performance.now() - t)
  }
  samples.sort((a, b) => a - b)
  return { medianMs: Number(percentile(samples, 50).toFixed(2)), p90Ms: Number(percentile(samples, 90).toFixed(2)) }
}

try {
  seed()
  const open = () => {
    const db = new Database(file)
    db.pragma("journal_mode = WAL")
    for (const ddl of STORAGE_SCHEMA.statements) db.prepare(ddl).run()
    return db
  }
  const result = {
    sessions,
    messages: sessions * 4,
    jobs: sessions / 10,
    storedResponses: sessions / 10,
    fileMiB: Number((statSync(file).size / 2 ** 20).toFixed(1)),
    openWithSchema: await time(() => {
      open().close()
    }),
    quickCheck: await time(() => {
      const db = open()
      db.pragma("quick_check")
      db.close()
    }),
    integrityCheck: await time(() => {
      const db = open()
      db.pragma("integrity_check")
      db.close()
    }),
    emulatorStartAfterCleanStop: await time(async () => {
      await (await startEmulator({ apiKey: "sk-bench-quick-check-0123", dataDir: dir })).close()
    }),
    emulatorStartAfterUncleanStop: await (async () => {
      // a connection of this process holds the write-ahead log open, as a killed process leaves it
      const holder = open()
      holder.prepare("INSERT INTO hermes_message_seq (namespace, last_id) VALUES ('held', 1) ON CONFLICT DO NOTHING").run()
      try {
        return await time(async () => {
          await (await startEmulator({ apiKey: "sk-bench-quick-check-0123", dataDir: dir })).close()
        })
      } finally {
        holder.close()
      }
    })()
  }
  process.stdout.write(`${JSON.stringify(result, null, 1)}\n`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
