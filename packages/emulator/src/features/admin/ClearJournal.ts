/** DELETE /__admin/journal: the namespace's journal entries forgotten. */
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminHandler } from "../../http/Route.js"
import { Journal } from "../../services/Journal.js"

export const clearJournal: AdminHandler = (ctx) => Effect.flatMap(Journal, (j) => Effect.as(j.clear(ctx.namespace), jsonResponse({ cleared: true })))
