/** POST /__admin/script: a Script's turns appended to the namespace's queue (@hermetic/script's contract). */
import { Effect, Either } from "effect"
import { Script, type ScriptAppended } from "@hermetic/script"
import { adminError } from "../../http/AdminGate.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminContext, AdminHandler } from "../../http/Route.js"
import { Agent } from "../../services/Agent.js"
import { parseAdminBody } from "./AdminBody.js"

export const appendScript: AdminHandler = (ctx) => Effect.gen(() => append(ctx))

function* append(ctx: AdminContext) {
  const script = parseAdminBody(Script, ctx.req.body)
  if (Either.isLeft(script)) return adminError(400, `invalid Script: ${script.left}`)
  const pending = yield* Effect.either((yield* Agent).player(ctx.namespace).append(script.right))
  if (Either.isLeft(pending)) return adminError(400, pending.left.message)
  const appended: ScriptAppended = { appended: script.right.turns.length, pendingTurns: pending.right }
  return jsonResponse(appended)
}
