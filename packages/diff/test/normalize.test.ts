import { describe, expect, it } from "vitest"
import { normalizeRun } from "../src/normalize/normalizeRun.js"
import type { Scenario } from "../src/scenario/Scenario.js"
import { jsonExchange, rawJsonExchange, runOf, sseExchange } from "./support.js"

const scenarioOf = (n: number, extra: Scenario["steps"] = []): Scenario => ({
  version: 1,
  name: "t",
  steps: [...Array.from({ length: n }, () => ({ reset: {} })), ...extra]
})

const A = `run_${"a".repeat(32)}`
const B = `run_${"b".repeat(32)}`

describe("normalizeRun", () => {
  it("gives server-made ids identity-preserving tokens across responses, later requests and messages", () => {
    const run = runOf(
      jsonExchange("POST", "/v1/runs", 202, { run_id: A, status: "started" }),
      jsonExchange("POST", "/v1/runs", 202, { run_id: B, status: "started" }),
      jsonExchange("GET", `/v1/runs/${A}`, 404, { error: { message: `Run not found: ${A}` } })
    )
    const n = normalizeRun(run, scenarioOf(3), { clock: "pinned" })
    const bodies = n.steps.map((s) => (s.exchanges[0]?.response?.body.kind === "json" ? s.exchanges[0].response.body.value : null))
    expect(bodies).toEqual([{ run_id: "<run:1>", status: "started" }, { run_id: "<run:2>", status: "started" }, { error: { message: "Run not found: <run:1>" } }])
    expect(n.steps[2]?.exchanges[0]?.request.path).toBe("/v1/runs/<run:1>")
    expect(n.fired.get("id.run")).toBe(4)
  })

  it("numbers tokens by sorted key so key order on the wire does not change the numbering", () => {
    const one = normalizeRun(runOf(rawJsonExchange("GET", "/x", 200, `{"z": "${A}", "a": "${B}"}`)), scenarioOf(1), { clock: "pinned" })
    const other = normalizeRun(runOf(rawJsonExchange("GET", "/x", 200, `{"a": "${B}", "z": "${A}"}`)), scenarioOf(1), { clock: "pinned" })
    const body = (r: typeof one) => (r.steps[0]?.exchanges[0]?.response?.body.kind === "json" ? r.steps[0].exchanges[0].response.body.value : null)
    expect(body(one)).toEqual({ z: "<run:2>", a: "<run:1>" })
    expect(Object.keys(body(one) ?? {})).toEqual(["z", "a"])
    expect(body(other)).toEqual({ a: "<run:1>", z: "<run:2>" })
  })

  it("with a running clock replaces timestamps by their type and compares relations", () => {
    const run = runOf(
      rawJsonExchange("GET", "/r", 200, `{"run_id": "${A}", "created_at": 1764500000.5, "updated_at": 1764500001.25}`),
      rawJsonExchange("GET", "/r", 200, `{"run_id": "${A}", "created_at": 1764500000.5, "updated_at": 1764400000}`)
    )
    const n = normalizeRun(run, scenarioOf(2), { clock: "running" })
    const body = n.steps[1]?.exchanges[0]?.response?.body
    expect(body).toEqual({ kind: "json", value: { run_id: "<run:1>", created_at: "<time:float>", updated_at: "<time:int>" } })
    const failed = n.relations.filter((r) => !r.holds).map((r) => r.id)
    expect(failed).toEqual([
      "steps[1].exchanges[0].response.body: created ≤ updated_at",
      "steps[1].exchanges[0].response.body.updated_at: updated_at of run_id=<run:1> ≥ its value at step 0"
    ])
    const pinned = normalizeRun(run, scenarioOf(2), { clock: "pinned" })
    expect(pinned.steps[1]?.exchanges[0]?.response?.body).toEqual({ kind: "json", value: { run_id: "<run:1>", created_at: 1764500000.5, updated_at: 1764400000 } })
    expect(pinned.relations).toEqual([])
  })

  it("sees a clock jump only when later timestamps moved by it", () => {
    const steps: Scenario["steps"] = [{ reset: {} }, { clock: { advance: 3600 } }, { reset: {} }]
    const jumped = runOf(rawJsonExchange("GET", "/a", 200, `{"created_at": 1764500000.0}`), { kind: "clock", exchanges: [] }, rawJsonExchange("GET", "/b", 200, `{"created_at": 1764503601.0}`))
    const stuck = runOf(rawJsonExchange("GET", "/a", 200, `{"created_at": 1764500000.0}`), { kind: "clock", exchanges: [] }, rawJsonExchange("GET", "/b", 200, `{"created_at": 1764500002.0}`))
    expect(normalizeRun(jumped, { version: 1, name: "t", steps }, { clock: "running" }).relations).toEqual([{ id: "step 1: newest timestamp after advance 3600s ≥ newest before + 3600s", holds: true }])
    expect(normalizeRun(stuck, { version: 1, name: "t", steps }, { clock: "running" }).relations[0]?.holds).toBe(false)
  })

  it("lets a scheduled time move back: a job's next run after its schedule changed is no reading of the clock", () => {
    const job = (next: number) => `{"id": "${A}", "created_at": 1764500000.25, "next_run_at": ${next}}`
    const run = runOf(rawJsonExchange("GET", "/j", 200, job(1764503600.25)), rawJsonExchange("PATCH", "/j", 200, job(1764503600.0)))
    const relations = normalizeRun(run, scenarioOf(2), { clock: "running" }).relations
    expect(relations.filter((r) => r.id.includes("next_run_at of"))).toEqual([])
    expect(relations.filter((r) => !r.holds)).toEqual([])
  })

  it("leaves a scheduled time out of the clock jump: a job's next run made before the jump is no reading of the clock", () => {
    const steps: Scenario["steps"] = [{ reset: {} }, { clock: { advance: 300 } }, { reset: {} }]
    // an interval job created at t0 runs next at t0 + 600; after the jump its update is read at t0 + 301
    const job = (updated: number) => `{"id": "${A}", "created_at": 1764500000.0, "updated_at": ${updated}, "next_run_at": 1764500600.0}`
    const run = runOf(rawJsonExchange("GET", "/j", 200, job(1764500000.0)), { kind: "clock", exchanges: [] }, rawJsonExchange("GET", "/j", 200, job(1764500301.0)))
    const jump = normalizeRun(run, { version: 1, name: "t", steps }, { clock: "running" }).relations.filter((r) => r.id.startsWith("step 1:"))
    expect(jump).toEqual([{ id: "step 1: newest timestamp after advance 300s ≥ newest before + 300s", holds: true }])
  })

  it("tells a session's messages apart by their integer ids: the first message is not the last one's later reading", () => {
    const list = (...msgs: ReadonlyArray<[number, number]>) =>
      `{"object": "list", "session_id": "${A}", "data": [${msgs.map(([id, ts]) => `{"id": ${id}, "session_id": "${A}", "timestamp": ${ts}}`).join(", ")}]}`
    const run = runOf(rawJsonExchange("GET", "/m", 200, list([1, 1764500000.1], [2, 1764500000.9])), rawJsonExchange("GET", "/m", 200, list([1, 1764500000.1], [2, 1764500000.9], [3, 1764500005.0])))
    const relations = normalizeRun(run, scenarioOf(2), { clock: "running" }).relations
    expect(relations.filter((r) => !r.holds)).toEqual([])
    expect(relations.map((r) => r.id)).toContain("steps[1].exchanges[0].response.body.data[0].timestamp: timestamp of id=1 ≥ its value at step 0")
  })

  it("compares a jump only with timestamps on its own timeline: none from before a set or a backward move, none after the next", () => {
    const steps: Scenario["steps"] = [{ reset: {} }, { clock: { set: 1700000000 } }, { reset: {} }, { clock: { advance: 400 } }, { reset: {} }, { clock: { set: 1900000000 } }, { reset: {} }]
    const clock = { kind: "clock" as const, exchanges: [] }
    // before the set: a later wall time than anything after the jump; after the next set: a much later one
    const played = (afterJump: number) =>
      runOf(
        rawJsonExchange("GET", "/a", 200, `{"created_at": 1764500000.0}`),
        clock,
        rawJsonExchange("GET", "/b", 200, `{"created_at": 1700000003.0}`),
        clock,
        rawJsonExchange("GET", "/c", 200, `{"created_at": ${afterJump}}`),
        clock,
        rawJsonExchange("GET", "/d", 200, `{"created_at": 1900000001.0}`)
      )
    const relation = (afterJump: number) =>
      normalizeRun(played(afterJump), { version: 1, name: "t", steps }, { clock: "running" }).relations.find((r) => r.id.startsWith("step 3:"))?.holds
    expect(relation(1700000404.0)).toBe(true)
    // a reading, after the set, of a value made before it (a run read again) is not on the new timeline
    const reread = runOf(
      rawJsonExchange("GET", "/a", 200, `{"created_at": 1764500000.0}`),
      clock,
      rawJsonExchange("GET", "/b", 200, `{"created_at": 1764500000.0, "updated_at": 1700000003.0}`),
      clock,
      rawJsonExchange("GET", "/c", 200, `{"created_at": 1700000404.0}`),
      clock,
      rawJsonExchange("GET", "/d", 200, `{"created_at": 1900000001.0}`)
    )
    expect(normalizeRun(reread, { version: 1, name: "t", steps }, { clock: "running" }).relations.find((r) => r.id.startsWith("step 3:"))?.holds).toBe(true)
    // the jump did not show on its own timeline: the later set's readings must not hide that
    expect(relation(1700000010.0)).toBe(false)
  })

  it("an int timestamp made right after a jump counts as jumped (int(time.time()) drops the fraction)", () => {
    const steps: Scenario["steps"] = [{ reset: {} }, { clock: { advance: 60 } }, { reset: {} }]
    const soon = runOf(rawJsonExchange("GET", "/a", 200, `{"created_at": 1764500000.7}`), { kind: "clock", exchanges: [] }, rawJsonExchange("GET", "/b", 200, `{"created": 1764500060}`))
    const short = runOf(rawJsonExchange("GET", "/a", 200, `{"created_at": 1764500000.7}`), { kind: "clock", exchanges: [] }, rawJsonExchange("GET", "/b", 200, `{"created": 1764500059}`))
    expect(normalizeRun(soon, { version: 1, name: "t", steps }, { clock: "running" }).relations[0]?.holds).toBe(true)
    expect(normalizeRun(short, { version: 1, name: "t", steps }, { clock: "running" }).relations[0]?.holds).toBe(false)
  })

  it("sees a frozen clock only when the readings made while it stands are within 1 s (a scheduled next_run_at is no reading)", () => {
    const steps: Scenario["steps"] = [{ clock: { freeze: true } }, { reset: {} }, { reset: {} }, { clock: { freeze: false } }]
    const frozen = runOf({ kind: "clock", exchanges: [] }, rawJsonExchange("GET", "/a", 200, `{"created_at": 1764500000.0, "next_run_at": 1764507200.0}`), rawJsonExchange("GET", "/b", 200, `{"created": 1764500000}`), { kind: "clock", exchanges: [] })
    const running = runOf({ kind: "clock", exchanges: [] }, rawJsonExchange("GET", "/a", 200, `{"created_at": 1764500000.0}`), rawJsonExchange("GET", "/b", 200, `{"created": 1764500003}`), { kind: "clock", exchanges: [] })
    const scenario: Scenario = { version: 1, name: "t", steps }
    const frozenRelation = (r: ReturnType<typeof normalizeRun>) => r.relations.find((x) => x.id.includes("frozen"))
    expect(frozenRelation(normalizeRun(frozen, scenario, { clock: "running" }))).toEqual({ id: "steps 1–2: timestamps made while the clock is frozen are within 1 s of each other", holds: true })
    expect(frozenRelation(normalizeRun(running, scenario, { clock: "running" }))?.holds).toBe(false)
  })

  it("drops noise headers (counted) and keeps every other header", () => {
    const run = runOf(jsonExchange("GET", "/health", 200, {}, [["date", "Mon"], ["server", "Python/3.11 aiohttp/3.14.1"], ["x-frame-options", "DENY"]]))
    const n = normalizeRun(run, scenarioOf(1), { clock: "pinned" })
    expect(n.steps[0]?.exchanges[0]?.response?.headers).toEqual({ "content-type": "application/json; charset=utf-8", "x-frame-options": "DENY" })
    expect(n.fired.get("header.date")).toBe(1)
    expect(n.fired.get("header.server")).toBe(1)
  })

  it("parses SSE frames, tokenizes their data and drops keepalives", () => {
    const run = runOf(sseExchange(`/v1/runs/${A}/events`, `data: {"event": "message.delta", "run_id": "${A}", "delta": "a"}\n\n: keepalive\n\n: stream closed\n\n`))
    const n = normalizeRun(run, scenarioOf(1), { clock: "pinned" })
    expect(n.steps[0]?.exchanges[0]?.response?.body).toEqual({
      kind: "sse",
      complete: true,
      stoppedBy: "end",
      frames: [{ data: { event: "message.delta", run_id: "<run:1>", delta: "a" } }, { comment: "stream closed" }]
    })
    expect(n.fired.get("sse.keepalive")).toBe(1)
  })
})

describe("normalizeRun: ISO times and job ids", () => {
  it("turns ISO date-times into <time:iso> with a running clock and tokenizes 12-hex job ids", () => {
    const run = runOf(rawJsonExchange("GET", "/api/jobs/0123456789ab", 200, '{"job": {"id": "0123456789ab", "created_at": "2026-12-01T10:00:00+00:00", "next_run_at": "2026-12-01T09:00:00+00:00"}}'))
    const n = normalizeRun(run, { version: 1, name: "t", steps: [{ reset: {} }] }, { clock: "running" })
    expect(n.steps[0]?.exchanges[0]?.request.path).toBe("/api/jobs/<cron-job:1>")
    expect(n.steps[0]?.exchanges[0]?.response?.body).toEqual({ kind: "json", value: { job: { id: "<cron-job:1>", created_at: "<time:iso>", next_run_at: "<time:iso>" } } })
    expect(n.relations).toEqual([{ id: "steps[0].exchanges[0].response.body.job: created ≤ next_run_at", holds: false }])
  })
})

describe("bare 32-hex ids", () => {
  it("tokenizes a job execution's uuid4().hex and keeps where it reappears, leaving a run id to its own rule", () => {
    const exec = "08346750e5cc45839d938ebb48e8853c"
    const run = runOf(rawJsonExchange("GET", "/api/jobs", 200, JSON.stringify({ jobs: [{ latest_execution: { id: exec, note: `again ${exec}` } }], run: "run_0123456789abcdef0123456789abcdef" })))
    const n = normalizeRun(run, { version: 1, name: "t", steps: [{ reset: {} }] }, { clock: "pinned" })
    expect(n.steps[0]?.exchanges[0]?.response?.body).toEqual({ kind: "json", value: { jobs: [{ latest_execution: { id: "<hex32:1>", note: "again <hex32:1>" } }], run: "<run:1>" } })
  })
})

describe("a call id made from its response's id", () => {
  const hex = "a5db4ff88c384160bf87786d304c"
  const other = "ca2a8e9970f1c68c21abc1f8d150"
  const streamed = (responseHex: string, callHex: string) =>
    runOf(rawJsonExchange("POST", "/v1/responses", 200, JSON.stringify({ id: `resp_${responseHex}`, output: [{ type: "function_call", call_id: `call_${callHex}_3` }] })))
  const bodyOf = (responseHex: string, callHex: string) =>
    normalizeRun(streamed(responseHex, callHex), { version: 1, name: "t", steps: [{ reset: {} }] }, { clock: "pinned" }).steps[0]?.exchanges[0]?.response?.body

  it("keeps the response it names (call_<response hex>_<n>) and its count, whatever the random hex", () => {
    expect(bodyOf(hex, hex)).toEqual({ kind: "json", value: { id: "<resp:1>", output: [{ type: "function_call", call_id: "call_<resp:1>_3" }] } })
    expect(bodyOf(other, other)).toEqual(bodyOf(hex, hex))
  })

  it("tells a call id made from another response apart", () => {
    expect(bodyOf(hex, other)).toEqual({ kind: "json", value: { id: "<resp:1>", output: [{ type: "function_call", call_id: "call_<resp:2>_3" }] } })
  })
})

describe("the Responses delta-join rule", () => {
  const ev = (type: string, seq: number, extra: Record<string, unknown> = {}) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq, ...extra })}\n\n`
  const delta = (seq: number, text: string, item = "msg_1") => ev("response.output_text.delta", seq, { item_id: item, output_index: 0, content_index: 0, delta: text })
  const stream = (...frames: Array<string>) => normalizeRun(runOf(sseExchange("/v1/responses", frames.join(""))), scenarioOf(1), { clock: "pinned" })
  const frames = (n: ReturnType<typeof stream>) => {
    const body = n.steps[0]?.exchanges[0]?.response?.body
    return body?.kind === "sse" ? body.frames.map((f) => f.data) : []
  }

  it("makes one reply cut into deltas differently normalize alike, renumbered", () => {
    const twoCuts = stream(ev("response.created", 0), delta(1, "Hel"), delta(2, "lo "), delta(3, "there"), ev("response.completed", 4))
    const oneCut = stream(ev("response.created", 0), delta(1, "Hello there"), ev("response.completed", 2))
    expect(frames(twoCuts)).toEqual(frames(oneCut))
    expect(twoCuts.fired.get("sse.responses-delta-join")).toBe(2)
    expect(oneCut.fired.get("sse.responses-delta-join")).toBeUndefined()
  })

  it("keeps different text, deltas of different items, and sequence numbers of a stream with nothing joined", () => {
    expect(frames(stream(delta(1, "Hel"), delta(2, "p")))).not.toEqual(frames(stream(delta(1, "Hello"))))
    expect(frames(stream(delta(1, "a", "msg_1"), delta(2, "b", "msg_2")))).toHaveLength(2)
    // a numbering bug stays visible where no delta was joined
    expect(frames(stream(ev("response.created", 1), delta(2, "x")))).toEqual([
      { type: "response.created", sequence_number: 1 },
      { type: "response.output_text.delta", sequence_number: 2, item_id: "msg_1", output_index: 0, content_index: 0, delta: "x" }
    ])
  })
})
