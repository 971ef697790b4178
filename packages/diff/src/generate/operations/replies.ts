/** Script turns the agent-backed operations share: plain text, streamed chunks, a model error. */
import type { Reply } from "@hermetic/script"
import * as fc from "fast-check"

export type PlainTurn = "text" | "chunks" | "error"

export const plainTurn = fc.constantFrom<PlainTurn>("text", "chunks", "error")

export const plainReply = (kind: PlainTurn, n: number): Reply => {
  switch (kind) {
    case "text":
      return { text: `answer ${n}`, usage: { prompt_tokens: 10 + n, completion_tokens: 2 } }
    case "chunks":
      return { text: `chunked ${n}`, chunks: ["chun", "ked ", `${n}`], usage: { prompt_tokens: 5, completion_tokens: 3 } }
    case "error":
      return { error: { status: 400, message: `synthetic failure ${n}` } }
  }
}
