/**
 * Both Script players answer alike: random Scripts and random model-call sequences (turn
 * openings, tool-result and length continuations, Hermes' retries of a failed call, housekeeping
 * calls, holds released before and after the call, resets, turns matched by `when` on the last
 * user message and the model) are played by the emulator's Agent
 * service (in process, its control plane through its fetch) and by the fake model over HTTP. Every
 * reply, every control-plane answer and the players' state after each step must be identical.
 */
import { Agent, Emulator, layer, type StorageOpenError } from "@hermetic/emulator"
import { type FakeModel, startFakeModel } from "@hermetic/oracle-runner"
import {
  type Answer,
  type CallMessage,
  LENGTH_CONTINUATION_PROMPT,
  type Reply,
  replyFinishReason,
  replyText,
  type Script
} from "@hermetic/script"
import { Effect, Fiber, ManagedRuntime } from "effect"
import fc from "fast-check"
import { propertyParams } from "../../../test/support/propertySeed.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const HOLDS = ["h1", "h2"] as const
const SYSTEM: CallMessage = { role: "system", content: "You are Hermes Agent, an intelligent AI assistant." }

const replyArb: fc.Arbitrary<Reply> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ text: fc.constantFrom("a", "b", "c", "") }) },
  { weight: 1, arbitrary: fc.record({ text: fc.constant("cut"), finishReason: fc.constant("length" as const) }) },
  { weight: 2, arbitrary: fc.record({ text: fc.constant(""), toolCalls: fc.constant([{ name: "lookup", arguments: { q: 1 } }]) }) },
  { weight: 2, arbitrary: fc.record({ error: fc.record({ status: fc.constantFrom(400, 422, 429, 500, 503), message: fc.constant("synthetic") }) }) }
).chain((reply) => fc.option(fc.constantFrom(...HOLDS), { nil: undefined, freq: 3 }).map((hold) => (hold === undefined ? reply : { ...reply, hold })))

/** What both players can see of a call: the last user message and the model (issue 16's matched turns). */
const whenArb = fc.record(
  {
    lastUserMessage: fc.oneof(
      fc.constantFrom("hi", "again", "start").map((equals) => ({ equals })),
      fc.constant({ contains: "ga" }),
      fc.constant({ matches: "^H", flags: "i" })
    ),
    model: fc.constantFrom("m", "another-model")
  },
  { requiredKeys: [] }
)

const turnArb = fc.record(
  { when: whenArb, replies: fc.array(replyArb, { minLength: 1, maxLength: 3 }) },
  { requiredKeys: ["replies"] }
)

const scriptArb: fc.Arbitrary<Script> = fc.record({ turns: fc.array(turnArb, { minLength: 0, maxLength: 4 }) })

type Command =
  | { readonly kind: "append"; readonly script: Script }
  | { readonly kind: "open"; readonly text: string; readonly fresh: boolean; readonly stream: boolean }
  | { readonly kind: "tool-result" | "length" | "retry" | "housekeeping"; readonly stream: boolean }
  | { readonly kind: "release"; readonly hold: string }
  | { readonly kind: "reset" }

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 2, arbitrary: scriptArb.map((script) => ({ kind: "append" as const, script })) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("open" as const), text: fc.constantFrom("hi", "again"), fresh: fc.boolean(), stream: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom("tool-result" as const, "length" as const, "retry" as const, "housekeeping" as const), stream: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constantFrom(...HOLDS).map((hold) => ({ kind: "release" as const, hold })) },
  { weight: 1, arbitrary: fc.constant({ kind: "reset" as const }) }
)

/** What a model call is answered with, as a client of the model sees it. */
type Seen = { readonly status: number; readonly text: string; readonly tools: ReadonlyArray<string>; readonly finish: string } | { readonly status: number; readonly error: string }

const seenOfAnswer = ({ reply, toolCallIds }: Answer): Seen =>
  reply.error !== undefined
    ? { status: reply.error.status, error: reply.error.message }
    : { status: 200, text: replyText(reply), tools: (reply.toolCalls ?? []).map((t, i) => `${t.name}#${toolCallIds[i]}`), finish: replyFinishReason(reply) }

interface WireToolCall {
  readonly id: string
  readonly function: { readonly name: string }
}

interface WireChoice {
  readonly message?: { readonly content?: string | null; readonly tool_calls?: ReadonlyArray<WireToolCall> }
  readonly delta?: { readonly content?: string; readonly tool_calls?: ReadonlyArray<WireToolCall> }
  readonly finish_reason: string | null
}

const seenOfHttp = async (res: Response): Promise<Seen> => {
  const text = await res.text()
  if (res.status !== 200) return { status: res.status, error: (JSON.parse(text) as { error: { message: string } }).error.message }
  if (res.headers.get("content-type")?.startsWith("text/event-stream") === true) {
    const chunks = text.split("\n\n").filter((f) => f.startsWith("data: ") && f !== "data: [DONE]").map((f) => JSON.parse(f.slice(6)) as { choices: ReadonlyArray<WireChoice> })
    const choices = chunks.flatMap((c) => c.choices)
    return {
      status: 200,
      text: choices.map((c) => c.delta?.content ?? "").join(""),
      tools: choices.flatMap((c) => (c.delta?.tool_calls ?? []).map((t) => `${t.function.name}#${t.id}`)),
      finish: choices.map((c) => c.finish_reason).find((f) => f !== null) ?? ""
    }
  }
  const choice = (JSON.parse(text) as { choices: ReadonlyArray<WireChoice> }).choices[0]
  return {
    status: 200,
    text: choice?.message?.content ?? "",
    tools: (choice?.message?.tool_calls ?? []).map((t) => `${t.function.name}#${t.id}`),
    finish: choice?.finish_reason ?? ""
  }
}

const emulatorRuntime = ManagedRuntime.make(layer({}))
let fm: FakeModel
beforeAll(async () => {
  fm = await startFakeModel()
})
afterAll(async () => {
  await fm.close()
  await emulatorRuntime.dispose()
})

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** One player seen from the test: the same control plane, a model call, and its state. */
interface Player {
  readonly admin: (path: string, body?: unknown) => Promise<unknown>
  /** Makes the call; when it is held, waits until the player says so, releases it over the control plane, and returns what the release answered. */
  readonly call: (messages: ReadonlyArray<CallMessage>, stream: boolean) => Promise<{ readonly seen: Seen; readonly release?: unknown }>
  readonly state: () => Promise<unknown>
}

const emulatorPlayer = (namespace: string): Player => {
  const run = <A>(effect: Effect.Effect<A, StorageOpenError, Agent | Emulator>) => emulatorRuntime.runPromise(effect)
  const admin = (path: string, body: unknown = {}) =>
    run(Effect.flatMap(Emulator, (emu) => Effect.promise(() => emu.fetch(`http://emulator/__admin${path}`, { method: "POST", headers: { "x-hermetic-namespace": namespace, "content-type": "application/json" }, body: JSON.stringify(body) })))).then((r) => r.json())
  const player = () => run(Effect.map(Agent, (a) => a.player(namespace)))
  return {
    admin,
    call: async (messages) => {
      const p = await player()
      const answer = await run(p.answer({ messages, model: "m" }))
      if (answer.hold === undefined) return { seen: seenOfAnswer(answer) }
      const waiter = emulatorRuntime.runFork(p.awaitHold(answer.hold))
      await sleep(0)
      // a hold released before the call was reached lets the reply go at once, as on the fake model
      if (waiter.unsafePoll() !== null) return { seen: seenOfAnswer(answer) }
      const release = await admin(`/holds/${answer.hold}/release`)
      const released = await run(Fiber.join(waiter))
      expect(released).toBe(true)
      return { seen: seenOfAnswer(answer), release }
    },
    state: async () => run((await player()).view)
  }
}

const fakeModelPlayer = (): Player => {
  const admin = (path: string, body: unknown = {}) =>
    fetch(`${fm.url}/__admin${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json())
  const state = async () => (await (await fetch(`${fm.url}/__admin/state`)).json()) as { readonly heldCalls: ReadonlyArray<string> }
  return {
    admin,
    call: async (messages, stream) => {
      let settled = false
      const pending = fetch(`${fm.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages, stream })
      }).then(async (r) => {
        settled = true
        return seenOfHttp(r)
      })
      // held: the fake model reports the hold; released before: the answer comes at once
      for (;;) {
        if (settled) return { seen: await pending }
        const held = (await state()).heldCalls
        if (held.length > 0) {
          const release = await admin(`/holds/${held[0]}/release`)
          return { seen: await pending, release }
        }
        await sleep(2)
      }
    },
    state
  }
}

let namespaceCount = 0

describe("the emulator's Agent and the fake model play Scripts alike", () => {
  it("answer every random model-call sequence identically", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { minLength: 1, maxLength: 25 }), async (commands) => {
        const emu = emulatorPlayer(`players-${++namespaceCount}`)
        const fake = fakeModelPlayer()
        await fake.admin("/reset")
        let messages: Array<CallMessage> = [SYSTEM, { role: "user", content: "start" }]
        for (const command of commands) {
          let stream = false
          switch (command.kind) {
            case "append":
              expect(await emu.admin("/script", command.script)).toEqual(await fake.admin("/script", command.script))
              continue
            case "release":
              expect(await emu.admin(`/holds/${command.hold}/release`)).toEqual(await fake.admin(`/holds/${command.hold}/release`))
              continue
            case "reset":
              expect(await emu.admin("/reset")).toEqual(await fake.admin("/reset"))
              continue
            case "open":
              messages = command.fresh ? [SYSTEM, { role: "user", content: command.text }] : [...messages, { role: "user", content: command.text }]
              stream = command.stream
              break
            case "tool-result":
              messages = [...messages, { role: "assistant", content: "" }, { role: "tool", content: "result" }]
              stream = command.stream
              break
            case "length":
              messages = [...messages, { role: "assistant", content: "cut" }, { role: "user", content: LENGTH_CONTINUATION_PROMPT }]
              stream = command.stream
              break
            case "housekeeping": {
              const review = [SYSTEM, { role: "user", content: "Review the conversation above and consider saving to memory" }]
              const [e, f] = [await emu.call(review, command.stream), await fake.call(review, command.stream)]
              expect(e).toEqual(f)
              continue
            }
            case "retry":
              stream = command.stream
              break
          }
          const fromEmulator = await emu.call(messages, stream)
          const fromFakeModel = await fake.call(messages, stream)
          expect(fromEmulator).toEqual(fromFakeModel)
          expect(await emu.state()).toEqual(await fake.state())
        }
      }),
      propertyParams(11_01, { numRuns: 60 })
    )
  })
})
