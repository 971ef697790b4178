/** POST /__admin/reset: everything of the namespace forgotten (the `Namespace` service). */
import { Effect } from "effect"
import type { ResetDone } from "@hermetic/script"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminHandler } from "../../http/Route.js"
import { Namespace } from "../../namespace/Namespace.js"

const RESET: ResetDone = { reset: true }

export const resetNamespace: AdminHandler = (ctx) =>
  Effect.flatMap(Namespace, (n) => Effect.as(n.reset(ctx.namespace), jsonResponse(RESET)))
