/** DELETE /__admin/faults: every fault of the namespace disarmed. */
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminHandler } from "../../http/Route.js"
import { Faults } from "../../services/Faults.js"

export const clearFaults: AdminHandler = (ctx) => Effect.flatMap(Faults, (f) => Effect.as(f.clear(ctx.namespace), jsonResponse({ cleared: true })))
