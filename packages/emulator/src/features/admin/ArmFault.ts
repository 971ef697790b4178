/** POST /__admin/faults: a FaultRule armed for the namespace's next matching requests. */
import { Effect, Either } from "effect"
import { adminError } from "../../http/AdminGate.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminHandler } from "../../http/Route.js"
import { FaultRule, Faults } from "../../services/Faults.js"
import { parseAdminBody } from "./AdminBody.js"

export const armFault: AdminHandler = (ctx) => {
  const rule = parseAdminBody(FaultRule, ctx.req.body)
  if (Either.isLeft(rule)) return Effect.succeed(adminError(400, `invalid fault: ${rule.left}`))
  return Effect.flatMap(Faults, (f) => Effect.as(f.add(ctx.namespace, rule.right), jsonResponse({ armed: rule.right })))
}
