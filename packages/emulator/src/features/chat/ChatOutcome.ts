/**
 * How Hermes turns an agent outcome into a chat completion (0.19.0 source, observed live): the
 * finish_reason ("length" for a partial result whose error mentions truncation, "error" for a
 * failed or incomplete one, else "stop"), the `hermes` block and X-Hermes-* headers of a run that
 * did not complete, and the 502 `agent_incomplete` when a failed or partial run left no text.
 */
import type { AgentTurnResult } from "../../agent/AgentLoop.js"
import { headerText } from "../../http/HeaderText.js"

export type FinishReason = "stop" | "length" | "error"

export const finishReasonOf = (r: Pick<AgentTurnResult, "partial" | "failed" | "completed" | "error">): FinishReason => {
  const err = r.error ?? ""
  if (r.partial && err !== "" && err.toLowerCase().includes("truncat")) return "length"
  if (r.failed || (!r.completed && err !== "")) return "error"
  return "stop"
}

export const usageBody = (r: AgentTurnResult) => ({
  prompt_tokens: r.usage.input_tokens,
  completion_tokens: r.usage.output_tokens,
  total_tokens: r.usage.total_tokens
})

export const hermesBlock = (r: AgentTurnResult, finish: FinishReason) => ({
  completed: r.completed,
  partial: r.partial,
  failed: r.failed,
  error: r.error ?? null,
  error_code: finish === "length" ? "output_truncated" : "agent_error"
})

/** X-Hermes-Error: the error text cut to 200 code points, sent as aiohttp sends text in a header (UTF-8). */
export const errorHeaderValue = (error: string): string => headerText([...error].slice(0, 200).join(""))
