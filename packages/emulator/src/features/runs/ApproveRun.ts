/**
 * POST /v1/runs/{run_id}/approval: answer a pending tool approval. Validation order as upstream:
 * auth → known run → JSON → choice → live approval session → something pending.
 */
import { Effect } from "effect"
import { errorResponse, runNotFound } from "../../http/Envelopes.js"
import { jsonResponse } from "../../http/Exchange.js"
import { readJson } from "../../http/RequestBody.js"
import { HandlerCrash, type Handler, type RouteContext } from "../../http/Route.js"
import { lookupRun } from "./RunLookup.js"
import { runsIn, type RunsServices } from "./Runs.js"
import { coerceRequestBool, isDict, pyStr, pyStrip } from "../../python/index.js"

const ALIASES: Record<string, string> = { approve: "once", approved: "once", allow: "once" }
const ALLOWED = new Set(["once", "session", "always", "deny"])

export const approveRun: Handler<RunsServices> = (ctx) => Effect.gen(() => answerApproval(ctx))

function* answerApproval(ctx: RouteContext<RunsServices>) {
  const runId = ctx.params["run_id"] ?? ""
  if ((yield* lookupRun(ctx, runId)) === undefined) return runNotFound(runId)
  const parsed = readJson(yield* ctx.readBody)
  if (parsed._tag === "Left") return errorResponse(400, "Invalid JSON")
  const body = parsed.right
  if (!isDict(body)) return yield* new HandlerCrash({ reason: "'body' has no attribute 'get'" })
  const raw = pyStrip(pyStr("choice" in body ? body["choice"] : "")).toLowerCase()
  const choice = ALIASES[raw] ?? raw
  if (!ALLOWED.has(choice)) {
    return errorResponse(400, "Invalid approval choice; expected one of: once, session, always, deny", {
      code: "invalid_approval_choice"
    })
  }
  const all = coerceRequestBool(body["all"], false) || coerceRequestBool(body["resolve_all"], false)
  const outcome = yield* runsIn(ctx).approve(ctx.namespace, runId, choice, all, ctx.now())
  switch (outcome._tag) {
    case "notActive":
      return errorResponse(409, `Run has no active approval session: ${runId}`, { code: "approval_not_active" })
    case "nothingPending":
      return errorResponse(409, `Run has no pending approval: ${runId}`, { code: "approval_not_pending" })
    case "resolved":
      return jsonResponse({ object: "hermes.run.approval_response", run_id: runId, choice, resolved: outcome.resolved })
  }
}
