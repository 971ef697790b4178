/**
 * Random snapshots (a valid one, mutated: cells of the wrong type, nulls, columns left out or
 * added, odd strings, huge numbers, rows repeated) loaded over the control plane: each is either
 * refused with a 400 that names the table, row and column, or every read route answers without a
 * 5xx afterwards. Before cells were checked, `started_at: "yesterday"` loaded and every
 * GET /api/sessions answered 500 until a reset.
 */
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { propertyParams } from "../../../../test/support/propertySeed.js"
import { type RunningEmulator, startEmulator } from "../../src/index.js"
import { ADMIN_HEADERS, API_KEY } from "../support.js"

type Cell = string | number | null
type Row = Record<string, Cell>
type Tables = Record<string, Array<Row>>

let emu: RunningEmulator
let saved: Record<string, unknown>
let tables: Tables

const call = (method: string, path: string, body?: unknown) =>
  emu.fetch(`http://e${path}`, {
    method,
    headers: { authorization: `Bearer ${API_KEY}`, ...ADMIN_HEADERS },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

beforeAll(async () => {
  emu = await startEmulator({ apiKey: API_KEY, hermesVersion: "0.21.0" })
  // a state with a row in every durable table: sessions (one forked), messages, a stored response
  // in a conversation, a ledgered run, a job with an execution record
  await call("POST", "/__admin/script", { turns: Array.from({ length: 4 }, () => ({ replies: [{ text: "ok" }] })) })
  await call("POST", "/v1/chat/completions", { model: "m", messages: [{ role: "user", content: "hi" }] })
  await call("POST", "/v1/responses", { input: "remember", conversation: "c1" })
  const session = (await (await call("POST", "/api/sessions", { id: "s-base", title: "Base" })).json()) as Record<string, unknown>
  expect(session).toBeDefined()
  await call("POST", "/api/sessions/s-base/fork", {})
  const run = (await (await emu.fetch("http://e/v1/runs", {
    method: "POST",
    headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json", "idempotency-key": "k1" },
    body: JSON.stringify({ input: "ledgered" })
  })).json()) as { run_id: string }
  for (let i = 0; i < 200 && ((await (await call("GET", `/v1/runs/${run.run_id}`)).json()) as { status: string }).status !== "completed"; i++) {
    await new Promise((f) => setTimeout(f, 10))
  }
  const job = (await (await call("POST", "/api/jobs", { name: "daily", schedule: "every 1h", prompt: "p" })).json()) as { job: { id: string } }
  await call("POST", `/api/jobs/${job.job.id}/run`, {})
  await call("POST", "/__admin/cron/tick", {})
  saved = ((await (await call("POST", "/__admin/snapshot", { action: "save" })).json()) as { snapshot: Record<string, unknown> }).snapshot
  tables = saved["tables"] as Tables
  for (const [table, rows] of Object.entries(tables)) {
    if (table !== "cron_executions") expect(rows.length, `${table} has a row to mutate`).toBeGreaterThan(0)
  }
})
afterAll(async () => {
  await emu.close()
})

const oddString = fc.oneof(
  fc.constantFrom("", " ", "yesterday", "lots", "null", "{", "[]", "{}", "[1,2", '{"a":1}', "\u0000", "\uD800", "NaN", "1e999", "-1", "0x10", "true", "s-base"),
  fc.string({ maxLength: 16 }),
  fc.string({ minLength: 3000, maxLength: 3100 })
)
const oddNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 1e300, -1e300, 2 ** 53, 2 ** 63, -(2 ** 63), Number.MAX_SAFE_INTEGER, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true })
)
const cell: fc.Arbitrary<Cell | undefined> = fc.oneof(oddString, oddNumber, fc.constant(null), fc.constant(undefined))

/** One change to a table: a cell set (undefined: left out), a column added, a row repeated or dropped. */
const mutation = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("cell" as const), pick: fc.nat(), column: fc.nat(), value: cell }) },
  // a cell of the type its column had, odd all the same: these load, and the reads must cope
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("sameType" as const), pick: fc.nat(), column: fc.nat(), text: oddString, number: oddNumber }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("extra" as const), pick: fc.nat(), name: fc.constantFrom("colour", "namespace", "rowid", "ID"), value: cell }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("repeat" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("drop" as const), pick: fc.nat() }) }
)
const mutations = fc.array(fc.record({ table: fc.nat(), change: mutation }), { minLength: 1, maxLength: 4 })

type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never

const apply = (rows: Array<Row>, m: Mutation): Array<Row> => {
  if (rows.length === 0) return rows
  const at = m.pick % rows.length
  const row = rows[at] as Row
  switch (m.kind) {
    case "cell": {
      const names = Object.keys(row)
      const column = names[m.column % names.length] as string
      const { [column]: _, ...rest } = row
      return rows.map((r, i) => (i !== at ? r : m.value === undefined ? rest : { ...row, [column]: m.value }))
    }
    case "sameType": {
      const names = Object.keys(row)
      const column = names[m.column % names.length] as string
      const was = row[column]
      const value = typeof was === "string" ? m.text : typeof was === "number" ? m.number : null
      return rows.map((r, i) => (i !== at ? r : { ...row, [column]: value }))
    }
    case "extra":
      return rows.map((r, i) => (i !== at ? r : { ...row, [m.name]: m.value ?? null }))
    case "repeat":
      return [...rows, row]
    case "drop":
      return rows.filter((_, i) => i !== at)
  }
}

const READS = (ids: Record<string, string>) => [
  "/api/sessions",
  "/api/sessions?include_children=1&limit=5&offset=1",
  `/api/sessions/${encodeURIComponent(ids["session"] ?? "missing")}`,
  `/api/sessions/${encodeURIComponent(ids["session"] ?? "missing")}/messages`,
  `/api/sessions/${encodeURIComponent(ids["forked"] ?? "missing")}`,
  "/api/jobs",
  "/api/jobs?include_disabled=1",
  `/api/jobs/${encodeURIComponent(ids["job"] ?? "missing")}`,
  `/v1/runs/${encodeURIComponent(ids["run"] ?? "missing")}`,
  `/v1/responses/${encodeURIComponent(ids["response"] ?? "missing")}`,
  "/v1/models",
  "/health",
  "/health/detailed",
  "/v1/capabilities"
]

/** A string a client can send in a path (a lone surrogate cannot be percent-encoded). */
const sendable = (v: Cell | undefined): v is string => {
  if (typeof v !== "string" || v === "") return false
  try {
    encodeURIComponent(v)
    return true
  } catch {
    return false
  }
}

/** Ids the loaded rows hold (strings only: a mutated id is looked up as what a client could send). */
const idsOf = (t: Tables): Record<string, string> => {
  const first = (table: string, column: string) => t[table]?.map((r) => r[column]).find(sendable)
  const entries: Array<[string, string | undefined]> = [
    ["session", first("hermes_sessions", "id")],
    ["forked", t["hermes_sessions"]?.map((r) => r["id"]).findLast(sendable)],
    ["job", first("cron_jobs", "id")],
    ["run", first("run_ledger", "run_id")],
    ["response", first("stored_responses", "response_id")]
  ]
  return Object.fromEntries(entries.filter((e): e is [string, string] => e[1] !== undefined))
}

describe("snapshot loads of mutated snapshots", () => {
  it("are refused naming table, row and column, or leave every read route answering without a 5xx", async () => {
    const names = Object.keys(tables)
    const outcomes = { refused: 0, loaded: 0 }
    await fc.assert(
      fc.asyncProperty(mutations, async (changes) => {
        const mutated: Tables = { ...tables }
        for (const { table, change } of changes) {
          const name = names[table % names.length] as string
          mutated[name] = apply(mutated[name] ?? [], change)
        }
        const res = await call("POST", "/__admin/snapshot", { action: "load", snapshot: { ...saved, tables: mutated } })
        const body = (await res.json()) as { error?: { message?: string } }
        if (res.status !== 200) {
          outcomes.refused++
          expect(res.status).toBe(400)
          expect(body.error?.message).toMatch(/^snapshot table [a-z_]+, row \d+, column .+: /)
          return
        }
        outcomes.loaded++
        for (const path of READS(idsOf(mutated))) {
          const read = await call("GET", path)
          const text = await read.text()
          expect(read.status, `GET ${path} after loading ${JSON.stringify(changes)}: ${text.slice(0, 200)}`).toBeLessThan(500)
        }
      }),
      propertyParams(28_03, { numRuns: 300 })
    )
    // both sides of the property were exercised: the mutations are not all refused, nor all harmless
    expect(outcomes.refused).toBeGreaterThan(30)
    expect(outcomes.loaded).toBeGreaterThan(30)
  })
})
