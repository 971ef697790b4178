/**
 * /v1/runs: create (valid bodies with every kind of Script turn, invalid bodies and headers,
 * idempotency keys, concurrent submissions), get, events, stop, approval, hold release.
 */
import type { Reply } from "@hermetic/script"
import * as fc from "fast-check"
import type { JsonValue } from "../../json/JsonValue.js"
import type { HttpRequestSpec, Step } from "../../scenario/Scenario.js"
import { type GenModel, type ModelRun, newAlias, newHold, pickRun, type ScenarioBuilder, stopStranded } from "../GenModel.js"
import { command, type OperationCommands } from "./Operation.js"
import { type PlainTurn, plainReply } from "./replies.js"

type TurnKind = PlainTurn | "hold"

const replyOf = (kind: TurnKind, n: number, hold: string | undefined): Reply =>
  kind === "hold" ? { hold: hold ?? "h", text: `held ${n}` } : plainReply(kind, n)

const VALID_BODIES: ReadonlyArray<JsonValue> = [
  { input: "hi" },
  { input: "hello there", session_id: "sess-gen" },
  { input: [{ role: "user", content: "first" }, { role: "assistant", content: "ok" }, { role: "user", content: "second" }] },
  { input: "with model", model: "custom-model" },
  { input: "with instructions", instructions: "be brief" }
]

const INVALID_REQUESTS: ReadonlyArray<Omit<HttpRequestSpec, "method" | "path">> = [
  { rawBody: "{not json", headers: { "content-type": "application/json" } },
  { body: {} },
  { body: { input: "" } },
  { body: { input: 42 } },
  { body: { input: null } },
  { body: { input: [] } },
  { body: [1, 2] },
  { rawBody: "", headers: { "content-type": "application/json" } }
  // not `{ input: "   " }`: 0.19.0 starts a run for it (202, on both sides), and a run nobody scripted
  // or waited for takes a later Script turn at a time that is a race (the 1,006-scenario campaign
  // of evidence/campaigns/ lost 3 scenarios to it)
]

/** `{play.nonce}` keeps a key from meeting a ledger entry left by an earlier play on the same gateway. */
const KEYS = ["key-a-{play.nonce}", "key-b-{play.nonce}"]

const runPath = (r: ModelRun, suffix = "") => `/v1/runs/{${r.alias}.run_id}${suffix}`
const get = (r: ModelRun): Step =>
  r.phase === "gone" ? { request: { method: "GET", path: runPath(r) }, until: { httpStatus: [404], deadlineMs: 3000 } } : { request: { method: "GET", path: runPath(r) } }

/** A valid create: the Script turn, the POST, and a poll to the run's settle point. */
const createRun = (m: GenModel, b: ScenarioBuilder, kind: TurnKind, body: JsonValue, key: string | undefined) => {
  const headers = key !== undefined ? { "Idempotency-Key": key } : undefined
  const post = (alias: string): Step => ({ request: { method: "POST", path: "/v1/runs", body, ...(headers ? { headers } : {}) }, as: alias })
  const known = key !== undefined && m.features.runsIdempotencyLedger ? m.keys.get(key) : undefined
  if (known !== undefined) {
    // the ledger answers without starting a run: a replay (same body) or a conflict (another body)
    b.add(post(newAlias(m)))
    return
  }
  const hold = kind === "hold" ? newHold(m) : undefined
  const alias = newAlias(m)
  b.script({ turns: [{ replies: [replyOf(kind, m.aliasCount, hold)] }] })
  m.warmth = "warm"
  b.add(post(alias))
  const run: ModelRun = {
    alias,
    phase: hold !== undefined ? "held" : "terminal",
    ...(hold !== undefined ? { hold, heldLoopHigh: m.loop } : {}),
    settledAt: m.clock,
    eventsRead: false,
    clockMoved: false
  }
  b.add({ request: { method: "GET", path: runPath(run) }, until: hold !== undefined ? { status: ["running"] } : { terminal: true } })
  // "running" is set before the agent calls the model: wait until the reply is really held, or a
  // later agent call could take this turn first on the real gateway
  if (hold !== undefined) b.add({ awaitHold: hold })
  m.runs.push(run)
  if (key !== undefined && m.features.runsIdempotencyLedger) m.keys.set(key, { body: JSON.stringify(body), alias })
}

const anyRun: ReadonlyArray<ModelRun["phase"]> = ["held", "stopping", "terminal", "gone"]

export const runsOperation: OperationCommands = {
  id: "runs",
  requiresRoutes: ["runs.create", "runs.get", "runs.events", "runs.stop", "runs.approval"],
  commands: () => [
    fc
      .record({
        kind: fc.constantFrom<TurnKind>("text", "chunks", "error", "hold", "hold"),
        body: fc.constantFrom(...VALID_BODIES),
        key: fc.option(fc.constantFrom(...KEYS), { freq: 3 })
      })
      .map(({ kind, body, key }) => command(`createRun(${kind}${key !== null ? `, key ${key.slice(0, 5)}` : ""})`, () => true, (m, b) => createRun(m, b, kind, body, key ?? undefined))),
    fc.constantFrom(...INVALID_REQUESTS).map((req) =>
      command(`createRunInvalid(${JSON.stringify(req.body ?? req.rawBody)})`, () => true, (_m, b) => b.add({ request: { method: "POST", path: "/v1/runs", ...req } }))
    ),
    fc.record({ auth: fc.constantFrom<"none" | "wrong">("none", "wrong"), pick: fc.nat() }).map(({ auth, pick }) =>
      command(`unauthorized(${auth})`, () => true, (m, b) => {
        const r = pickRun(m, pick, anyRun)
        b.add({ request: r === undefined ? { method: "POST", path: "/v1/runs", body: { input: "hi" }, auth } : { method: "GET", path: runPath(r), auth } })
      })
    ),
    fc.integer({ min: 2, max: 3 }).map((n) =>
      command(`concurrentCreates(${n})`, () => true, (m, b) => {
        const key = `par-${m.aliasCount + 1}-{play.nonce}`
        const aliases = Array.from({ length: n }, () => newAlias(m))
        const runsStarted = m.features.runsIdempotencyLedger ? 1 : n
        // identical turns: which submission takes which turn is a race, so they must not differ
        b.script({ turns: Array.from({ length: runsStarted }, () => ({ replies: [replyOf("text", 0, undefined)] })) })
        m.warmth = "warm"
        b.add({ parallel: aliases.map((as) => ({ request: { method: "POST", path: "/v1/runs", headers: { "Idempotency-Key": key }, body: { input: "same" } }, as })) })
        for (const alias of aliases.slice(0, runsStarted)) {
          const run: ModelRun = { alias, phase: "terminal", settledAt: m.clock, eventsRead: true, clockMoved: false }
          // which of the parallel answers started the run is a race; poll all of them to settle
          b.add({ request: { method: "GET", path: runPath(run) }, until: { terminal: true } })
          m.runs.push(run)
        }
      })
    ),
    fc.nat().map((pick) =>
      command("getRun", (m) => m.runs.length > 0, (m, b) => {
        const r = pickRun(m, pick, anyRun)
        if (r !== undefined) b.add(get(r))
      })
    ),
    fc.constant(command("getUnknownRun", () => true, (_m, b) => b.add({ request: { method: "GET", path: "/v1/runs/run_0123456789abcdef0123456789abcdef" } }))),
    fc.nat().map((pick) =>
      command(
        "readEvents",
        (m) => m.runs.some((r) => r.phase === "terminal" && !r.eventsRead && !r.clockMoved),
        (m, b) => {
          const fresh = m.runs.filter((x) => x.phase === "terminal" && !x.eventsRead && !x.clockMoved)
          const run = fresh[pick % fresh.length]
          if (run === undefined) return
          run.eventsRead = true
          b.add({ request: { method: "GET", path: runPath(run, "/events") } })
        }
      )
    ),
    fc.nat().map((pick) =>
      command("stopRun", (m) => m.runs.length > 0, (m, b) => {
        const r = pickRun(m, pick, ["held", "terminal", "gone"])
        if (r === undefined) return
        b.add({ request: { method: "POST", path: runPath(r, "/stop") } })
        if (r.phase !== "held") return
        if (stopStranded(m, r)) {
          r.phase = "stopping"
          return
        }
        // seen at the end of the current 0.3 s join slice: wait for it rather than race it
        b.add({ request: { method: "GET", path: runPath(r) }, until: { terminal: true } })
        r.phase = "terminal"
        r.settledAt = m.clock
      })
    ),
    fc.nat().map((pick) =>
      command("releaseHold", (m) => m.runs.some((r) => r.phase === "held" || r.phase === "stopping"), (m, b) => {
        const r = pickRun(m, pick, ["held", "stopping"])
        if (r === undefined || r.hold === undefined) return
        b.add({ release: r.hold }, { request: { method: "GET", path: runPath(r) }, until: { terminal: true } })
        r.phase = "terminal"
        r.settledAt = m.clock
      })
    ),
    fc.record({ pick: fc.nat(), choice: fc.constantFrom<JsonValue>({ choice: "once" }, { choice: "deny" }, { choice: "bogus" }, {}) }).map(({ pick, choice }) =>
      command(`approval(${JSON.stringify(choice)})`, (m) => m.runs.some((r) => r.phase === "terminal" || r.phase === "gone"), (m, b) => {
        const r = pickRun(m, pick, ["terminal", "gone"])
        if (r !== undefined) b.add({ request: { method: "POST", path: runPath(r, "/approval"), body: choice } })
      })
    )
  ]
}
