/** POST /__admin/drain {"draining": bool}: the namespace's process enters or leaves a drain. */
import { Effect, Either, Schema } from "effect"
import { adminError } from "../../http/AdminGate.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminHandler } from "../../http/Route.js"
import { Gateways } from "../../services/GatewayProcess.js"
import { activeApiRuns, Runs, type RunsServices } from "../runs/Runs.js"
import { parseAdminBody } from "./AdminBody.js"

const DrainCommand = Schema.Struct({ draining: Schema.Boolean })

export const drain: AdminHandler<RunsServices> = (ctx) => {
  const cmd = parseAdminBody(DrainCommand, ctx.req.body)
  if (Either.isLeft(cmd)) return Effect.succeed(adminError(400, `expected {"draining": bool}: ${cmd.left}`))
  return Effect.map(Effect.zip(Gateways, Runs), ([gateways, runs]) => {
    const gw = gateways.get(ctx.namespace)
    gw.draining = cmd.right.draining
    // entering or leaving a drain writes the runtime status with the active work of that moment
    gw.persistedActiveAgents = activeApiRuns(runs.of(ctx.namespace))
    return jsonResponse({ draining: gw.draining })
  })
}
