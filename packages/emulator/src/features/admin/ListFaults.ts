/** GET /__admin/faults: the namespace's armed faults. */
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminHandler } from "../../http/Route.js"
import { Faults } from "../../services/Faults.js"

export const listFaults: AdminHandler = (ctx) => Effect.flatMap(Faults, (f) => Effect.map(f.list(ctx.namespace), (faults) => jsonResponse({ faults })))
