import { Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import {
  appendScript,
  classifyModelCall,
  type CursorCall,
  type CursorState,
  emptyCursor,
  LENGTH_CONTINUATION_PROMPT,
  makeHolds,
  makeScriptPlayer,
  pickReply,
  type Script
} from "../src/index.js"

const user = (content: string) => ({ role: "user", content })
const tool = { role: "tool", content: "r" }

const run = (state: CursorState, calls: ReadonlyArray<CursorCall>) => {
  const picks = []
  let s = state
  for (const call of calls) {
    const [pick, next] = pickReply(s, call)
    picks.push(pick)
    s = next
  }
  return picks
}

describe("Script cursor", () => {
  const script: Script = { turns: [{ replies: [{ text: "a1" }, { text: "a2" }] }, { replies: [{ text: "b1" }] }] }

  it("opens a turn per opening call, continues within it, and never steals the next turn", () => {
    const picks = run(appendScript(emptyCursor, script), [
      { opensTurn: true, fingerprint: () => "1", matches: () => false },
      { opensTurn: false, fingerprint: () => "2", matches: () => false },
      { opensTurn: false, fingerprint: () => "3", matches: () => false },
      { opensTurn: true, fingerprint: () => "4", matches: () => false },
      { opensTurn: true, fingerprint: () => "5", matches: () => false }
    ])
    expect(picks).toEqual([
      { kind: "reply", turn: 0, index: 0, reply: { text: "a1" }, skipped: 0 },
      { kind: "reply", turn: 0, index: 1, reply: { text: "a2" }, skipped: 0 },
      { kind: "exhausted", why: "turn-has-no-reply-left" },
      { kind: "reply", turn: 1, index: 0, reply: { text: "b1" }, skipped: 0 },
      { kind: "exhausted", why: "no-turn-queued" }
    ])
  })

  it("lets a continuation with no current turn open the next queued turn", () => {
    const [pick] = run(appendScript(emptyCursor, script), [{ opensTurn: false, fingerprint: () => "x", matches: () => false }])
    expect(pick).toEqual({ kind: "reply", turn: 0, index: 0, reply: { text: "a1" }, skipped: 0 })
  })

  it("keeps an error sticky for exactly the retries of its status, then opens the next turn", () => {
    const failing: Script = { turns: [{ replies: [{ error: { status: 503, message: "down" } }] }, { replies: [{ text: "next" }] }] }
    const same = { opensTurn: true, fingerprint: () => "same", matches: () => false }
    const kinds = run(appendScript(emptyCursor, failing), [same, same, same, same]).map((p) => p.kind)
    expect(kinds).toEqual(["reply", "sticky-error", "sticky-error", "reply"])
    const once: Script = { turns: [{ replies: [{ error: { status: 400, message: "bad" } }] }, { replies: [{ text: "next" }] }] }
    expect(run(appendScript(emptyCursor, once), [same, same]).map((p) => p.kind)).toEqual(["reply", "reply"])
  })
})

describe("a user message that equals Hermes' continuation prompt", () => {
  // 0.19.0 sends the cut-off reply as an assistant message, then the prompt; finish_reason is
  // stripped from the request (agent/conversation_loop.py), so the text alone proves nothing
  const cut = { role: "assistant", content: "cut" }
  const done = { role: "assistant", content: "done" }
  const script: Script = {
    turns: [
      { replies: [{ text: "part one", finishReason: "length" }, { text: "part two" }] },
      { replies: [{ text: "second turn" }] },
      { replies: [{ text: "third turn" }] }
    ]
  }
  const answers = async (calls: ReadonlyArray<ReadonlyArray<{ role: string; content: string }>>) => {
    const player = makeScriptPlayer()
    await Effect.runPromise(player.append(script))
    const texts: Array<string | undefined> = []
    for (const messages of calls) texts.push((await Effect.runPromise(player.answer({ messages }))).reply.text)
    return texts
  }

  it("opens a turn when no assistant message comes before it", () => {
    expect(classifyModelCall({ messages: [user(LENGTH_CONTINUATION_PROMPT)] })).toEqual({ kind: "opens-turn" })
    expect(classifyModelCall({ messages: [user("hi"), user(LENGTH_CONTINUATION_PROMPT)] })).toEqual({ kind: "opens-turn" })
  })

  it("continues the turn right after a reply cut by the length limit, and opens one after a finished reply", async () => {
    const hi = user("hi")
    const prompt = user(LENGTH_CONTINUATION_PROMPT)
    expect(await answers([
      [hi],
      [hi, cut, prompt],
      // the user types the prompt's text after the answer was finished: a new turn, not "part two"'s turn
      [hi, cut, prompt, done, prompt],
      [prompt]
    ])).toEqual(["part one", "part two", "second turn", "third turn"])
  })
})

describe("model call classification", () => {
  it("tells openings, continuations and housekeeping apart", () => {
    expect(classifyModelCall({ messages: [user("hi")] })).toEqual({ kind: "opens-turn" })
    expect(classifyModelCall({ messages: [user("hi"), { role: "assistant", content: "" }, tool] })).toEqual({ kind: "continues-turn" })
    expect(classifyModelCall({ messages: [user("hi"), { role: "assistant", content: "cut" }, user(LENGTH_CONTINUATION_PROMPT)] })).toEqual({
      kind: "continues-turn",
      continuation: "length_continuation"
    })
    expect(classifyModelCall({ messages: [{ role: "system", content: "You name chat sessions." }, user("hi")] })).toEqual({
      kind: "housekeeping",
      task: "title"
    })
  })
})

describe("holds", () => {
  it("remembers a release that comes first, counts waiting calls, and drops waiters on reset", async () => {
    const holds = makeHolds()
    expect(await Effect.runPromise(holds.release("early"))).toBe(0)
    expect(await Effect.runPromise(holds.wait("early"))).toBe(true)
    const program = Effect.gen(function*() {
      const a = yield* Effect.fork(holds.wait("h"))
      const b = yield* Effect.fork(holds.wait("h"))
      const c = yield* Effect.fork(holds.wait("other"))
      yield* Effect.yieldNow()
      const waiting = yield* holds.waiting
      const letGo = yield* holds.release("h")
      const results = [yield* Fiber.join(a), yield* Fiber.join(b)]
      yield* holds.reset
      return { waiting, letGo, results, dropped: yield* Fiber.join(c), after: yield* holds.waiting }
    })
    expect(await Effect.runPromise(program)).toEqual({ waiting: ["h", "other"], letGo: 2, results: [true, true], dropped: false, after: [] })
  })

  it("counts an interrupted waiter out", async () => {
    const holds = makeHolds()
    const waiting = await Effect.runPromise(
      Effect.gen(function*() {
        const f = yield* Effect.fork(holds.wait("h"))
        yield* Effect.yieldNow()
        yield* Fiber.interrupt(f)
        return yield* holds.waiting
      })
    )
    expect(waiting).toEqual([])
  })
})

describe("player", () => {
  it("holds only a Script reply's first attempt, not its sticky retries", async () => {
    const player = makeScriptPlayer()
    const call = { messages: [user("go")] }
    const answers = await Effect.runPromise(
      Effect.gen(function*() {
        yield* player.append({ turns: [{ replies: [{ hold: "h", error: { status: 500, message: "x" } }] }] })
        return [yield* player.answer(call), yield* player.answer(call)]
      })
    )
    expect(answers.map((a) => [a.source.kind, a.hold])).toEqual([["reply", "h"], ["sticky-error", undefined]])
  })
})
