import { describe, expect, it } from "vitest"
import { classify } from "../src/compare/compareScenario.js"
import { diffJson } from "../src/diff/diffJson.js"
import { diffRuns } from "../src/diff/diffRuns.js"
import { LearnedNoise } from "../src/noise/LearnedNoise.js"
import { normalizeRun } from "../src/normalize/normalizeRun.js"
import type { ScenarioRun } from "../src/runner/ScenarioRun.js"
import type { Scenario } from "../src/scenario/Scenario.js"
import { jsonExchange, rawJsonExchange, runOf, sseExchange } from "./support.js"

const scenario: Scenario = { version: 1, name: "t", steps: [{ reset: {} }, { reset: {} }] }
const norm = (run: ScenarioRun) => normalizeRun(run, scenario, { clock: "running" })

describe("diffJson", () => {
  it("types every kind of difference with its JSON path", () => {
    const kinds = diffJson({ a: 1, b: "x", c: [1, 2], d: { $float: "1.0" }, k: 1, l: 2 }, { b: "y", c: [1], d: 1, e: null, l: 2, k: 1 }).map((d) => [d.kind, d.path])
    expect(kinds).toEqual([
      ["missing-field", "$.a"],
      ["value", "$.b"],
      ["array-length", "$.c"],
      ["type", "$.d"],
      ["extra-field", "$.e"],
      ["key-order", "$"]
    ])
  })
})

describe("diffRuns", () => {
  it("reports status, header and body differences against the reference", () => {
    const ref = runOf(jsonExchange("POST", "/v1/runs/x/stop", 404, { error: "gone" }, [["x-frame-options", "DENY"]]))
    const cand = runOf(jsonExchange("POST", "/v1/runs/x/stop", 409, { error: "gone", extra: 1 }))
    const ds = diffRuns(norm(ref), norm(cand))
    expect(ds.map((d) => [d.operation, d.kind, d.path, d.expected, d.actual])).toEqual([
      ["runs.stop", "status", "$.response.status", 404, 409],
      ["runs.stop", "header", '$.response.headers["x-frame-options"]', "DENY", undefined],
      ["runs.stop", "extra-field", "$.response.body.extra", undefined, 1]
    ])
  })

  it("reports SSE event order separately from payloads", () => {
    const frames = (...events: Array<string>) => events.map((e) => `data: {"event": "${e}", "delta": "${e}"}\n\n`).join("")
    const reordered = diffRuns(norm(runOf(sseExchange("/v1/runs/r/events", frames("a", "b")))), norm(runOf(sseExchange("/v1/runs/r/events", frames("b", "a")))))
    expect(reordered.map((d) => d.kind)).toEqual(["sse-order"])
    const payload = diffRuns(
      norm(runOf(sseExchange("/v1/runs/r/events", 'data: {"event": "a", "delta": "x"}\n\n'))),
      norm(runOf(sseExchange("/v1/runs/r/events", 'data: {"event": "a", "delta": "y"}\n\n')))
    )
    expect(payload.map((d) => [d.kind, d.path])).toEqual([["sse-payload", "$.response.body.frames[0].data.delta"]])
  })

  it("compares timestamps as relations: a broken relation on one side only is a difference", () => {
    const ok = runOf(rawJsonExchange("GET", "/v1/runs/a", 200, '{"created_at": 1764500000.5, "updated_at": 1764500001.5}'))
    const bad = runOf(rawJsonExchange("GET", "/v1/runs/a", 200, '{"created_at": 1764500009.5, "updated_at": 1764500001.5}'))
    expect(diffRuns(norm(ok), norm(ok))).toEqual([])
    expect(diffRuns(norm(ok), norm(bad)).map((d) => [d.kind, d.expected, d.actual])).toEqual([["relation", true, false]])
  })
})

describe("classify", () => {
  const d = { kind: "value" as const, step: 0, exchange: 0, operation: "runs.get", path: "$.response.body.output", expected: "a", actual: "b" }
  it("is a divergence unless registered or learned as noise", () => {
    expect(classify(d, { register: { version: 1, entries: [] }, pin: "0.19.0" }).classification).toBe("divergence")
    const register = { version: 1 as const, entries: [{ id: "R1", operation: "runs.get", path: "$.response.body.*", category: "gap" as const, reason: "because" }] }
    expect(classify(d, { register, pin: "0.19.0" })).toMatchObject({ classification: "registered", reason: "R1: because" })
    expect(classify(d, { register: { version: 1, entries: [{ ...register.entries[0]!, pins: ["0.21.0"] }] }, pin: "0.19.0" }).classification).toBe("divergence")
    const noise = new LearnedNoise()
    noise.learn("s", [{ ...d, expected: "x", actual: "y" }])
    expect(classify(d, { register: { version: 1, entries: [] }, pin: "0.19.0", noise }, "s").classification).toBe("noise")
    // learned on one scenario and step only: elsewhere the same path is still a divergence
    expect(classify(d, { register: { version: 1, entries: [] }, pin: "0.19.0", noise }, "other").classification).toBe("divergence")
    expect(classify({ ...d, step: 4 }, { register: { version: 1, entries: [] }, pin: "0.19.0", noise }, "s").classification).toBe("divergence")
  })
})
