/**
 * Which model calls are Hermes' own housekeeping (answered with a fixed default, never from the
 * Script) and which belong to the agent turn the Script describes.
 *
 * The markers are the fixed prompts Hermes sends for each auxiliary task (read from the 0.19.0
 * source and confirmed by the journal of live runs). With `platform_toolsets.api_server: []`,
 * memory off, compression off and titles off, 0.19.0 made none of them in our runs; they stay
 * recognised so that a config change cannot make them silently eat Script turns.
 */
import { contentText, type ChatRequest } from "./ChatRequest.js"

export type Housekeeping =
  | "title"
  | "compression"
  | "background_review"
  | "goal_judge"
  | "curator"
  | "vision"

/** Main-agent calls that continue the current turn even though their last message is a user message. */
export type Continuation = "iteration_limit_summary" | "length_continuation"

export type Classification =
  | { readonly kind: "housekeeping"; readonly task: Housekeeping }
  | { readonly kind: "main"; readonly continuation?: Continuation }

const systemText = (req: ChatRequest): string =>
  req.messages.filter((m) => m.role === "system" || m.role === "developer").map((m) => contentText(m.content)).join("\n")

const lastUserText = (req: ChatRequest): string => {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i]
    if (m?.role === "user") return contentText(m.content)
  }
  return ""
}

const jsonSchemaName = (req: ChatRequest): string | undefined => {
  const rf = req.response_format
  if (typeof rf !== "object" || rf === null || !("json_schema" in rf)) return undefined
  const js = (rf as { json_schema: unknown }).json_schema
  return typeof js === "object" && js !== null && "name" in js && typeof (js as { name: unknown }).name === "string"
    ? (js as { name: string }).name
    : undefined
}

export const classify = (req: ChatRequest): Classification => {
  const sys = systemText(req)
  const user = lastUserText(req)
  if (
    jsonSchemaName(req) === "session_title" ||
    sys.startsWith("You name chat sessions") ||
    sys.startsWith("Generate a short, descriptive title")
  ) return { kind: "housekeeping", task: "title" }
  if (sys.includes("You are a summarization agent") || sys.includes("context checkpoint")) {
    return { kind: "housekeeping", task: "compression" }
  }
  if (user.startsWith("Review the conversation above")) return { kind: "housekeeping", task: "background_review" }
  // a user-attached image on a text-only main model: an auxiliary vision call describes it first
  // (observed live on 0.19.0 for inline data: images; the second prompt is the vision_analyze tool's)
  if (
    user.startsWith("Describe everything visible in this image") ||
    user.startsWith("Fully describe and explain everything about this image")
  ) return { kind: "housekeeping", task: "vision" }
  if (sys.startsWith("You are a strict judge")) return { kind: "housekeeping", task: "goal_judge" }
  if (sys.includes("You are the skill curator") || sys.includes("skill library curator")) return { kind: "housekeeping", task: "curator" }
  if (user.startsWith("You've reached the maximum number of tool-calling iterations")) {
    return { kind: "main", continuation: "iteration_limit_summary" }
  }
  // after a reply cut off by finish_reason "length", Hermes asks the model to go on: same turn
  if (user.startsWith("[System: Your previous response was truncated") || user.startsWith("[System: The previous response was cut off")) {
    return { kind: "main", continuation: "length_continuation" }
  }
  return { kind: "main" }
}

/** The fixed answer to a housekeeping call: JSON when Hermes asked for a JSON schema, plain text otherwise. */
export const housekeepingText = (req: ChatRequest, task: Housekeeping, fallback: string): string =>
  task === "title" && jsonSchemaName(req) === "session_title" ? JSON.stringify({ title: fallback }) : fallback
