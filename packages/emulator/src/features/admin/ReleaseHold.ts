/**
 * POST /__admin/holds/{name}/release: the model calls held under the name go on (@hermetic/script's
 * contract). The name is read from the raw path, whatever its escapes; a malformed one is a 400.
 */
import { Effect } from "effect"
import { ADMIN_PREFIX, type HoldReleased, holdReleaseName } from "@hermetic/script"
import { adminError } from "../../http/AdminGate.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminContext, AdminHandler } from "../../http/Route.js"
import { Agent } from "../../services/Agent.js"

export const releaseHold: AdminHandler = (ctx) => Effect.gen(() => release(ctx))

function* release(ctx: AdminContext) {
  const path = ctx.req.path.slice(ADMIN_PREFIX.length)
  const hold = holdReleaseName(path)
  if (hold === undefined) return adminError(400, `malformed percent-escape in hold name: ${path}`)
  const released: HoldReleased = { hold, releasedCalls: yield* (yield* Agent).player(ctx.namespace).release(hold) }
  return jsonResponse(released)
}
