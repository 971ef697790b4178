/**
 * The choice rules of matched turns, as properties over random queues and random calls:
 * a matching `when` turn is taken before the queue (the earliest matching one), a turn is never
 * taken by a call it does not match and keeps its place, unconditional turns keep FIFO order, and
 * every turn is taken at most once.
 */
import { Effect } from "effect"
import fc from "fast-check"
import { propertyParams } from "../../../test/support/propertySeed.js"
import { describe, expect, it } from "vitest"
import { decodeScriptSync, makeScriptPlayer, type ModelCall, type Script, type Turn, type When, whenMatches } from "../src/index.js"

const TEXTS = ["alpha", "beta", "gamma", "alphabet"] as const
const MODELS = ["m1", "m2"] as const

const whenArb: fc.Arbitrary<When> = fc
  .record(
    {
      lastUserMessage: fc.oneof(
        fc.constantFrom(...TEXTS).map((equals) => ({ equals })),
        fc.constantFrom("alpha", "a", "et").map((contains) => ({ contains })),
        fc.constantFrom("^al", "a$", "^(beta|gamma)$").map((matches) => ({ matches })),
        fc.constant({ matches: "^ALPHA", flags: "i" })
      ),
      model: fc.constantFrom(...MODELS),
      operation: fc.constantFrom("chat.completions" as const, "runs.create" as const),
      sessionId: fc.constantFrom("s1", "s2")
    },
    { requiredKeys: [] }
  )

/** Each turn's only reply names the turn, so a reply tells which turn a call took. */
const queueArb = fc
  .array(fc.option(whenArb, { nil: undefined, freq: 2 }), { minLength: 0, maxLength: 8 })
  .map((whens): ReadonlyArray<Turn> => whens.map((when, i) => ({ ...(when === undefined ? {} : { when }), replies: [{ text: `turn-${i}` }] })))

const callArb: fc.Arbitrary<ModelCall> = fc.record({
  messages: fc.constantFrom(...TEXTS).map((text) => [{ role: "system", content: "sys" }, { role: "user", content: text }]),
  model: fc.constantFrom(...MODELS),
  operation: fc.constantFrom("chat.completions" as const, "runs.create" as const),
  sessionId: fc.constantFrom("s1", "s2")
})

const play = (turns: ReadonlyArray<Turn>, calls: ReadonlyArray<ModelCall>) =>
  Effect.runSync(
    Effect.gen(function*() {
      const player = makeScriptPlayer()
      yield* player.append({ turns })
      const taken: Array<number | undefined> = []
      for (const call of calls) {
        const answer = yield* player.answer(call)
        const m = /^turn-(\d+)$/.exec(answer.reply.text ?? "")
        taken.push(m?.[1] === undefined ? undefined : Number(m[1]))
      }
      return { taken, pending: (yield* player.view).pendingTurns }
    })
  )

describe("matched turns (when): the choice rules", () => {
  it("take the earliest matching turn before the queue, else the queue's next, and never a turn a call does not match", () => {
    fc.assert(
      fc.property(queueArb, fc.array(callArb, { maxLength: 10 }), (turns, calls) => {
        const { taken, pending } = play(turns, calls)
        // replay the rules step by step on the remaining turns
        let left = turns.map((turn, i) => ({ turn, i }))
        taken.forEach((got, k) => {
          const call = calls[k] as ModelCall
          const matching = left.filter(({ turn }) => turn.when !== undefined && whenMatches(turn.when, call))
          const queued = left.filter(({ turn }) => turn.when === undefined)
          const expected = matching[0]?.i ?? queued[0]?.i
          expect(got).toBe(expected)
          if (got !== undefined) {
            const chosen = turns[got] as Turn
            // a conditional turn is only ever taken by a call it matches
            if (chosen.when !== undefined) expect(whenMatches(chosen.when, call)).toBe(true)
            left = left.filter(({ i }) => i !== got)
          }
        })
        // each turn taken at most once; what was not taken is still pending
        const takenTurns = taken.filter((t) => t !== undefined)
        expect(new Set(takenTurns).size).toBe(takenTurns.length)
        expect(pending).toBe(turns.length - takenTurns.length)
      }),
      propertyParams(16_01, { numRuns: 300 })
    )
  })

  it("play a queue without `when` in FIFO order, whatever the calls say", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.array(callArb, { maxLength: 8 }), (n, calls) => {
        const turns = Array.from({ length: n }, (_, i): Turn => ({ replies: [{ text: `turn-${i}` }] }))
        const { taken } = play(turns, calls)
        expect(taken).toEqual(calls.map((_, k) => (k < n ? k : undefined)))
      }),
      propertyParams(16_02, { numRuns: 100 })
    )
  })

  it("give calls made in any order the turn written for them", () => {
    const texts = ["alpha", "beta", "gamma"]
    fc.assert(
      fc.property(fc.shuffledSubarray(texts, { minLength: 3, maxLength: 3 }), (order) => {
        const turns = texts.map((text, i): Turn => ({ when: { lastUserMessage: { equals: text } }, replies: [{ text: `turn-${i}` }] }))
        const calls = order.map((text): ModelCall => ({ messages: [{ role: "user", content: text }] }))
        expect(play(turns, calls).taken).toEqual(order.map((text) => texts.indexOf(text)))
      }),
      propertyParams(16_03)
    )
  })

  it("refuse what a player cannot see, and regular expressions that do not compile", () => {
    const script: Script = { turns: [{ when: { operation: "runs.create", sessionId: "s" }, replies: [{ text: "x" }] }] }
    const refused = Effect.runSync(Effect.either(makeScriptPlayer({ sees: ["lastUserMessage", "model"], name: "the fake model" }).append(script)))
    expect(refused._tag === "Left" && refused.left.message).toBe(
      "the fake model cannot see when.operation, when.sessionId of a model call; it honours when.lastUserMessage, when.model"
    )
    expect(Effect.runSync(makeScriptPlayer().append(script))).toBe(1)
    expect(() => decodeScriptSync({ turns: [{ when: { lastUserMessage: { matches: "(" } }, replies: [] }] })).toThrow(/not a valid regular expression/)
    expect(() => decodeScriptSync({ turns: [{ when: { lastUserMessage: { matches: "a", flags: "g" } }, replies: [] }] })).toThrow()
  })
})
