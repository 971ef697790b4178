/** GET /__admin/holds: the model calls waiting on a hold in the namespace. */
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminHandler } from "../../http/Route.js"
import { Agent } from "../../services/Agent.js"

export const listHolds: AdminHandler = (ctx) =>
  Effect.flatMap(Agent, (agent) => Effect.map(agent.player(ctx.namespace).view, (view) => jsonResponse({ waiting: view.heldCalls })))
