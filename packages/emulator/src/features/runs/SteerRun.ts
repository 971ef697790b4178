/**
 * POST /v1/runs/{run_id}/steer (0.21.0; 0.19.0 has no such route): queue text for the running
 * agent, which takes it along with its next tool result; text nothing consumed comes back as
 * `pending_steer` on completion. Source: the 0.21.0 reference notes; the order of the checks is
 * inferred (auth → known run → JSON → text → accepting state).
 */
import { Effect } from "effect"
import { errorResponse, runNotFound } from "../../http/Envelopes.js"
import { jsonResponse } from "../../http/Exchange.js"
import { readJson } from "../../http/RequestBody.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { lookupRun } from "./RunLookup.js"
import { runsIn, type RunsServices } from "./Runs.js"
import { isDict } from "../../python/index.js"

/** Steer text from input | message | text; a list of parts is flattened to its text. */
const steerText = (body: Record<string, unknown>): string => {
  for (const field of ["input", "message", "text"]) {
    const v = body[field]
    if (typeof v === "string" && v.trim() !== "") return v.trim()
    if (Array.isArray(v)) {
      const text = v
        .map((p: unknown) => (typeof p === "string" ? p : isDict(p) && typeof p["text"] === "string" ? p["text"] : ""))
        .join("\n")
        .trim()
      if (text !== "") return text
    }
  }
  return ""
}

export const steerRun: Handler<RunsServices> = (ctx) => Effect.gen(() => queueSteer(ctx))

function* queueSteer(ctx: RouteContext<RunsServices>) {
  const runId = ctx.params["run_id"] ?? ""
  const record = yield* lookupRun(ctx, runId)
  if (record === undefined) return runNotFound(runId)
  const parsed = readJson(yield* ctx.readBody)
  if (parsed._tag === "Left") return errorResponse(400, "Invalid JSON")
  const body = isDict(parsed.right) ? parsed.right : {}
  const text = steerText(body)
  if (text === "") {
    return errorResponse(400, "Missing non-empty steer text; expected 'input', 'message', or 'text'.", {
      code: "invalid_steer_input"
    })
  }
  const accepted = record["status"] === "running" && (yield* runsIn(ctx).steer(runId, text, ctx.now()))
  if (!accepted) {
    return errorResponse(409, `Run is not currently accepting steer input: ${runId}`, { code: "run_not_accepting_steer" })
  }
  return jsonResponse({ object: "hermes.run.steer", run_id: runId, accepted: true })
}
