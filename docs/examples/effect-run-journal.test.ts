import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Emulator, expectRequest, layer, modelCallsOf } from "@hermetic/emulator"

const API_KEY = "test-key-0123456789"
// the whole emulator as a Layer: no socket, a fetch-style handler
const HermesTest = layer({ apiKey: API_KEY, journal: { bodies: true } })

it.scoped("a run's agent turn is verifiable after the 202", () =>
  Effect.gen(function*() {
    const emu = yield* Emulator
    const post = (path: string, body: unknown) =>
      Effect.promise(() =>
        emu.fetch(`http://hermes${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
          body: JSON.stringify(body)
        })
      )
    yield* post("/__admin/script", {
      turns: [{ replies: [{ toolCalls: [{ name: "search", arguments: { q: "docs" } }] }, { text: "Found it." }] }]
    })
    const started = yield* post("/v1/runs", { input: "find the docs" })
    expect(started.status).toBe(202)

    // the run plays after the 202: wait for its model calls (at most 2 s)
    const calls = yield* modelCallsOf({ operation: "runs.create", text: "find the docs" }, { withinMs: 2000, times: 1 })
    expect(calls).toHaveLength(2)
    // the second call carries the tool call and the gateway's answer (no such tool here)
    expect(calls[1]?.messages.map((m) => (m as { role: string }).role)).toEqual(["user", "assistant", "tool"])

    const entry = yield* expectRequest({ method: "POST", path: "/v1/runs" })
    expect(entry.request?.body).toEqual({ input: "find the docs" })
  }).pipe(Effect.provide(HermesTest))
)

it.scoped("a missing request fails with a message that lists what was sent", () =>
  Effect.gen(function*() {
    const failure = yield* Effect.flip(expectRequest({ operation: "chat.completions" }))
    expect(failure._tag).toBe("JournalExpectationFailed")
    expect(failure.message).toContain("The journal holds no requests.")
  }).pipe(Effect.provide(HermesTest))
)
