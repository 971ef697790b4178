/** The `modelCalls` step: the shared view of a target's model calls, recorded as a synthetic exchange and replayed from a cassette. */
import type { ReceivedCall } from "@hermetic/script"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { Cassette } from "../src/cassette/Cassette.js"
import { MODEL_CALLS_PATH, modelCallView, systemView } from "../src/modelCalls/ModelCallView.js"
import { runScenario } from "../src/runner/runScenario.js"
import { decodeScenarioSync, stepKind } from "../src/scenario/Scenario.js"
import { cassetteTarget } from "../src/target/CassetteTarget.js"
import { liveTarget } from "../src/target/liveTarget.js"
import { stubDriver } from "./support.js"

const info = { kind: "emulator-inprocess", pin: "0.19.0", real: false, clock: "pinned", description: "stub" } as const

const toolCall = (id: string, name: string, args: string) => ({ id, type: "function", function: { name, arguments: args } })

describe("modelCallView", () => {
  it("keeps only the caller's part of a system prompt that has Hermes' own block", () => {
    expect(systemView("You are Hermes.\n\nConversation started: Friday\nModel: m\nProvider: custom\n\nbe terse\n\nmore")).toEqual({ hermesCore: true, caller: "be terse\n\nmore" })
    expect(systemView("You are Hermes.\n\nConversation started: Friday\nModel: m")).toEqual({ hermesCore: true, caller: "" })
    expect(systemView("just a prompt")).toEqual({ hermesCore: false, content: "just a prompt" })
    expect(systemView([{ type: "text", text: "x" }])).toEqual({ hermesCore: false, content: [{ type: "text", text: "x" }] })
  })

  it("names tool calls by order of appearance and results by the call they answer, across calls", () => {
    const first: ReceivedCall = { kind: "main", messages: [{ role: "user", content: "q" }] }
    const history = [
      { role: "user", content: "q" },
      { role: "assistant", content: "", tool_calls: [toolCall("zz_9", "b", "{}"), toolCall("aa_1", "a", '{"x":1}')] },
      { role: "tool", name: "a", tool_call_id: "aa_1", content: "ra" },
      { role: "tool", name: "b", tool_call_id: "zz_9", content: "rb" },
      { role: "tool", tool_call_id: "nobody", content: "orphan" }
    ]
    const view = modelCallView([first, { kind: "main", messages: history }, { kind: "title", messages: history.slice(0, 3) }])
    expect(view).toEqual({
      calls: [
        { kind: "main", messages: [{ role: "user", content: "q" }] },
        {
          kind: "main",
          messages: [
            { role: "user", content: "q" },
            { role: "assistant", content: "", toolCalls: [{ ref: "call#1", name: "b", arguments: "{}", type: "function" }, { ref: "call#2", name: "a", arguments: '{"x":1}', type: "function" }] },
            { role: "tool", answers: "call#2", name: "a", content: "ra" },
            { role: "tool", answers: "call#1", name: "b", content: "rb" },
            { role: "tool", answers: "unknown#1", content: "orphan" }
          ]
        },
        {
          kind: "title",
          messages: [
            { role: "user", content: "q" },
            { role: "assistant", content: "", toolCalls: [{ ref: "call#1", name: "b", arguments: "{}", type: "function" }, { ref: "call#2", name: "a", arguments: '{"x":1}', type: "function" }] },
            { role: "tool", answers: "call#2", name: "a", content: "ra" }
          ]
        }
      ]
    })
  })

  it("keeps any other field, and tells a missing content from an empty one", () => {
    expect(modelCallView([{ kind: "main", messages: [{ role: "assistant", reasoning_content: "r" }, { role: "user", content: "" }, "odd"] }])).toEqual({
      calls: [{ kind: "main", messages: [{ role: "assistant", reasoning_content: "r" }, { role: "user", content: "" }, { malformed: "odd" }] }]
    })
  })
})

describe("the modelCalls step", () => {
  const scenario = decodeScenarioSync({ version: 1, name: "mc", steps: [{ modelCalls: {} }] })
  const calls: ReadonlyArray<ReceivedCall> = [{ kind: "main", messages: [{ role: "user", content: "hi" }] }]

  it("records the view of the driver's calls as one GET exchange, and a cassette replays it", async () => {
    expect(stepKind(scenario.steps[0]!)).toBe("modelCalls")
    const run = await Effect.runPromise(runScenario(liveTarget(info, stubDriver({ modelCalls: Effect.succeed(calls) })), scenario))
    const [exchange] = run.steps[0]?.exchanges ?? []
    expect(run.steps[0]?.kind).toBe("modelCalls")
    expect(exchange?.request).toEqual({ method: "GET", path: MODEL_CALLS_PATH, headers: {}, auth: "none" })
    expect(exchange?.response?.status).toBe(200)
    expect(JSON.parse(exchange?.response?.body.kind === "json" ? exchange.response.body.text : "null")).toEqual(modelCallView(calls))
    const cassette = { schema: "hermetic/cassette", version: 1, pin: "0.19.0", scenario, provenance: { recordedAt: "", launcher: "process", target: "", hermeticCommit: "", node: "" }, runs: [run] } as Cassette
    const replayed = await Effect.runPromise(runScenario(cassetteTarget(cassette, "mc.json"), scenario))
    expect(replayed.steps).toEqual(run.steps)
  })

  it("a driver that cannot read the calls fails the play", async () => {
    const failing = liveTarget(info, stubDriver({ modelCalls: Effect.fail(new Error("no journal")) }))
    await expect(Effect.runPromise(runScenario(failing, scenario))).rejects.toThrow(/model calls: no journal/)
  })
})
