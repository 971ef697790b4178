/** GET /v1/capabilities (bearer): the stable API surface of the pinned release. */
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler } from "../../http/Route.js"
import { capabilitiesDocument } from "./CapabilitiesDocument.js"

// upstream reports the adapter's own model name here, whatever the /p/<profile>/ prefix
export const capabilities: Handler = (ctx) =>
  Effect.sync(() => jsonResponse(capabilitiesDocument(ctx.features, ctx.config, ctx.config.modelName)))
