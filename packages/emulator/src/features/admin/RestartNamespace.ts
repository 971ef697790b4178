/** POST /__admin/restart: the namespace restarts as its process would (the `Namespace` service). */
import { Effect } from "effect"
import type { Restarted } from "@hermetic/script"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminHandler } from "../../http/Route.js"
import { Namespace } from "../../namespace/Namespace.js"

const RESTARTED: Restarted = { restarted: true }

export const restartNamespace: AdminHandler = (ctx) =>
  Effect.flatMap(Namespace, (n) => Effect.as(n.restart(ctx.namespace), jsonResponse(RESTARTED)))
