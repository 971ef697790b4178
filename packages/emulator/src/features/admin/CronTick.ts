/** POST /__admin/cron/tick: the cron scheduler's tick, now (it also runs by itself every 60 s). */
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminHandler } from "../../http/Route.js"
import { tickNamespace } from "../jobs/JobTicker.js"

export const cronTick: AdminHandler = (ctx) => Effect.map(tickNamespace(ctx.namespace), (fired) => jsonResponse({ fired }))
