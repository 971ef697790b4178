/**
 * GET /v1/skills (bearer): the installed skills. A fresh HERMES_HOME has none (observed live on
 * 0.19.0, both with the oracle runner's strict home and with Hermes' defaults); the `skills`
 * option supplies a list, served in the order given (upstream sorts its own enumeration).
 */
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler } from "../../http/Route.js"

export const listSkills: Handler = (ctx) =>
  Effect.sync(() => jsonResponse({ object: "list", data: ctx.config.skills }))
