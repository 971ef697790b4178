/**
 * GET /__admin/model-calls: the model calls the namespace's agent made since its last reset, each
 * with the API messages it sent (the fake model answers the same route with what the real gateway
 * sent it): what a scenario's `modelCalls` step compares.
 */
import type { ReceivedCalls } from "@hermetic/script"
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminHandler } from "../../http/Route.js"
import { Agent } from "../../services/Agent.js"

export const listModelCalls: AdminHandler = (ctx) =>
  Effect.flatMap(Agent, (agent) =>
    Effect.map(agent.player(ctx.namespace).received, (calls) => jsonResponse({ calls } satisfies ReceivedCalls)))
