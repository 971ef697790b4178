/** GET /v1/capabilities (bearer): the stable API surface of the pinned release. */
import { Effect } from "effect"
import { checkAuth } from "../../http/Auth.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler } from "../../http/Route.js"
import { capabilitiesDocument } from "../../discovery/CapabilitiesDocument.js"

// upstream reports the adapter's own model name here, whatever the /p/<profile>/ prefix
export const capabilities: Handler = (ctx) =>
  Effect.sync(() => checkAuth(ctx) ?? jsonResponse(capabilitiesDocument(ctx.features, ctx.config, ctx.config.modelName)))
