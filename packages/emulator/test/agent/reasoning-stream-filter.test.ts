import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { AgentTurnInput } from "../../src/agent/AgentTurn.js"
import { AgentTurnState } from "../../src/agent/AgentTurnState.js"
import { dropCloseTags, ReasoningStreamFilter } from "../../src/agent/ReasoningStreamFilter.js"

/**
 * [deltas, what each feed returns, what flush returns after them]: 0.19.0's
 * StreamingThinkScrubber on the same deltas (computed with the pinned venv's class).
 */
const STREAMS: ReadonlyArray<readonly [ReadonlyArray<string>, ReadonlyArray<string>, string]> = [
  [["<think>first thought</think>"], [""], ""],
  [["\n\n<reasoning>why</reasoning> done"], ["\n\n done"], ""],
  // a tag split across deltas, on both ends of the block
  [["<th", "ink>abc</thi", "nk>after"], ["", "", "after"], ""],
  [["before <think>x</think> after"], ["before  after"], ""],
  // an unclosed block swallows the rest, and flush drops it
  [["<think>never closed", " still"], ["", ""], ""],
  [["<reasoning>a", "b"], ["", ""], ""],
  // an open tag mid-line is prose
  [["use <think> tags here"], ["use <think> tags here"], ""],
  [["x", "<think>y", " z"], ["x", "<think>y", " z"], ""],
  // an open tag after a line end (in this delta or the previous one) opens a block
  [["line\n  <reasoning>r", "ea</reasoning>son"], ["line\n  ", "son"], ""],
  [["x\n", "<think>y</think>z"], ["x\n", "z"], ""],
  // a held tail that turned out not to be a tag comes back at flush
  [["ends with <"], ["ends with "], "<"],
  // a stray close tag goes with the whitespace after it
  [["a</think>   b"], ["ab"], ""],
  [["<THINK>Up</THINK>ok"], ["ok"], ""]
]

describe("ReasoningStreamFilter (StreamingThinkScrubber)", () => {
  it.each(STREAMS)("%j streams as 0.19.0 streams it", (deltas, outs, tail) => {
    const filter = new ReasoningStreamFilter()
    expect(deltas.map((d) => filter.feed(d))).toEqual(outs)
    expect(filter.flush()).toBe(tail)
  })

  it("starts a new reply at a block boundary after flush", () => {
    const filter = new ReasoningStreamFilter()
    expect(filter.feed("no line end")).toBe("no line end")
    expect(filter.feed("<think>mid-line")).toBe("<think>mid-line")
    filter.flush()
    expect(filter.feed("<think>new reply")).toBe("")
  })

  it("drops close tags and the spaces after them only", () => {
    expect(dropCloseTags("a</REASONING_SCRATCHPAD>\n\t b</x> c")).toBe("ab</x> c")
  })
})

/** A turn whose only use here is its stream: the deltas it passes on are collected. */
const streamingTurn = (sent: Array<string>) => {
  const input = {
    history: [],
    userMessage: "u",
    callbacks: { onDelta: (text: string) => Effect.sync(() => void sent.push(text)) }
  } as unknown as AgentTurnInput
  return new AgentTurnState(input, {} as never, {} as never)
}

// the collecting callback needs no Storage, so the turn's effects run without it
const run = (effect: Effect.Effect<void, never, unknown>) => Effect.runSync(effect as Effect.Effect<void>)

describe("AgentTurnState.onDelta (_fire_stream_delta)", () => {
  it("puts the paragraph break after tools before the filter: a break then the visible text", () => {
    const sent: Array<string> = []
    const turn = streamingTurn(sent)
    turn.needsBreak = true
    run(turn.beginModelCall())
    run(turn.onDelta("<reasoning>why</reasoning> done"))
    expect(sent).toEqual(["\n\n done"])
  })

  it("sends nothing for a reply whose text is only a block", () => {
    const sent: Array<string> = []
    const turn = streamingTurn(sent)
    run(turn.beginModelCall())
    run(turn.onDelta("<think>first thought</think>"))
    expect(sent).toEqual([])
  })

  it("takes leading line ends off a call's first visible text only", () => {
    const sent: Array<string> = []
    const turn = streamingTurn(sent)
    run(turn.beginModelCall())
    run(turn.onDelta("<think>t</think>\n\nanswer"))
    run(turn.onDelta("\nmore"))
    run(turn.beginModelCall())
    run(turn.onDelta("\nnext call"))
    expect(sent).toEqual(["answer", "\nmore", "next call"])
  })

  it("streams a reply's held tail before the next model call", () => {
    const sent: Array<string> = []
    const turn = streamingTurn(sent)
    run(turn.beginModelCall())
    run(turn.onDelta("a <"))
    expect(sent).toEqual(["a "])
    run(turn.beginModelCall())
    expect(sent).toEqual(["a ", "<"])
  })
})
