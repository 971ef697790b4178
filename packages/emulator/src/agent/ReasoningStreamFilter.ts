/**
 * The filter Hermes 0.19.0 runs a reply's streamed text through before any stream consumer sees
 * it (`StreamingThinkScrubber`): reasoning blocks are left out while they stream, however the
 * deltas cut them. Observed live: after a tool round, `"<reasoning>why</reasoning> done"` streams
 * as `"\n\n done"`, and a tool-call reply whose text is only a `<think>` block streams nothing.
 *
 * Rules (tags case-insensitive: think, thinking, reasoning, thought, REASONING_SCRATCHPAD):
 * - a closed pair `<tag>…</tag>` is dropped wherever it stands;
 * - an open tag with no close yet opens a block only at a block boundary (the stream's start, or
 *   only whitespace since the last line end), so prose naming a tag is kept; inside a block all
 *   text is dropped until a close tag;
 * - a stray close tag is dropped with the whitespace after it;
 * - a delta's tail that could begin a tag is held back until the next delta decides it; `flush`
 *   (before the next model call) gives it back, or drops it when a block is still open.
 * Positions are UTF-16 units of the lower-cased text; the tags are ASCII, so they line up.
 */

import { pyStrip } from "../python/index.js"

const TAG_NAMES = ["think", "thinking", "reasoning", "thought", "reasoning_scratchpad"] as const
const OPEN_TAGS = TAG_NAMES.map((name) => `<${name}>`)
const CLOSE_TAGS = TAG_NAMES.map((name) => `</${name}>`)
const LONGEST_TAG = Math.max(...[...OPEN_TAGS, ...CLOSE_TAGS].map((tag) => tag.length))
/** The whitespace a stray close tag takes with it. */
const AFTER_CLOSE_TAG = new Set([" ", "\t", "\n", "\r"])

interface Found {
  readonly at: number
  readonly length: number
}

/** The earliest of `tags` in `lower` at or after `from`, or undefined. */
const firstTag = (lower: string, tags: ReadonlyArray<string>): Found | undefined => {
  let best: Found | undefined
  for (const tag of tags) {
    const at = lower.indexOf(tag)
    if (at !== -1 && (best === undefined || at < best.at)) best = { at, length: tag.length }
  }
  return best
}

/** The earliest closed pair: [start, end) of `<tag>…</tag>`, the nearest close after its open. */
const firstClosedPair = (lower: string): readonly [number, number] | undefined => {
  let best: readonly [number, number] | undefined
  OPEN_TAGS.forEach((open, i) => {
    const start = lower.indexOf(open)
    if (start === -1) return
    const close = CLOSE_TAGS[i] as string
    const closeAt = lower.indexOf(close, start + open.length)
    if (closeAt === -1) return
    if (best === undefined || start < best[0]) best = [start, closeAt + close.length]
  })
  return best
}

/** The length of the longest tail of `lower` that is a proper prefix of one of `tags` (0: none). */
const partialTagTail = (lower: string, tags: ReadonlyArray<string>): number => {
  for (let n = Math.min(lower.length, LONGEST_TAG - 1); n > 0; n--) {
    const tail = lower.slice(-n)
    if (tags.some((tag) => tag.length > n && tag.startsWith(tail))) return n
  }
  return 0
}

/** Text without any close tag, each taking the spaces, tabs and line ends after it. */
export const dropCloseTags = (text: string): string => {
  if (!text.includes("</")) return text
  const lower = text.toLowerCase()
  let out = ""
  let i = 0
  while (i < text.length) {
    const tag = lower.startsWith("</", i) ? CLOSE_TAGS.find((close) => lower.startsWith(close, i)) : undefined
    if (tag === undefined) {
      out += text[i]
      i++
      continue
    }
    i += tag.length
    while (i < text.length && AFTER_CLOSE_TAG.has(text[i] as string)) i++
  }
  return out
}

/** Python's `s.strip() == ""`: only whitespace (or nothing) before a tag on its line. */
const onlySpaces = (text: string): boolean => pyStrip(text) === ""

export class ReasoningStreamFilter {
  private inBlock = false
  private held = ""
  /** Whether the last visible text ended a line (the stream's start counts as one). */
  private atLineStart = true

  /** One delta in, its visible part out (possibly empty). */
  feed(delta: string): string {
    if (delta === "") return ""
    let buf = this.held + delta
    this.held = ""
    const out: Array<string> = []
    while (buf !== "") {
      const lower = buf.toLowerCase()
      if (this.inBlock) {
        const close = firstTag(lower, CLOSE_TAGS)
        if (close === undefined) {
          const keep = partialTagTail(lower, CLOSE_TAGS)
          this.held = keep > 0 ? buf.slice(-keep) : ""
          return out.join("")
        }
        buf = buf.slice(close.at + close.length)
        this.inBlock = false
        continue
      }
      const pair = firstClosedPair(lower)
      const open = this.openAtBoundary(buf, lower, out)
      if (pair !== undefined && (open === undefined || pair[0] <= open.at)) {
        this.emit(out, buf.slice(0, pair[0]))
        buf = buf.slice(pair[1])
        continue
      }
      if (open !== undefined) {
        this.emit(out, buf.slice(0, open.at))
        this.inBlock = true
        buf = buf.slice(open.at + open.length)
        continue
      }
      const keep = Math.max(partialTagTail(lower, OPEN_TAGS), partialTagTail(lower, CLOSE_TAGS))
      this.held = keep > 0 ? buf.slice(-keep) : ""
      this.emit(out, keep > 0 ? buf.slice(0, -keep) : buf)
      return out.join("")
    }
    return out.join("")
  }

  /** The stream of one model reply ended: the held tail, unless it lies inside an open block. */
  flush(): string {
    const tail = this.inBlock ? "" : this.held
    this.inBlock = false
    this.held = ""
    // the next delta starts a new reply: a boundary again
    this.atLineStart = true
    return tail === "" ? "" : dropCloseTags(tail)
  }

  private emit(out: Array<string>, text: string): void {
    const visible = text === "" ? "" : dropCloseTags(text)
    if (visible === "") return
    out.push(visible)
    this.atLineStart = visible.endsWith("\n")
  }

  /** The earliest open tag standing at a block boundary. */
  private openAtBoundary(buf: string, lower: string, out: ReadonlyArray<string>): Found | undefined {
    let best: Found | undefined
    for (const tag of OPEN_TAGS) {
      for (let at = lower.indexOf(tag); at !== -1; at = lower.indexOf(tag, at + 1)) {
        if (!this.isBoundary(buf, at, out)) continue
        if (best === undefined || at < best.at) best = { at, length: tag.length }
        break
      }
    }
    return best
  }

  private isBoundary(buf: string, at: number, out: ReadonlyArray<string>): boolean {
    const lineStart = out.length > 0 ? (out[out.length - 1] as string).endsWith("\n") : this.atLineStart
    if (at === 0) return lineStart
    const before = buf.slice(0, at)
    const lineEnd = before.lastIndexOf("\n")
    if (lineEnd === -1) return lineStart && onlySpaces(before)
    return onlySpaces(before.slice(lineEnd + 1))
  }
}
