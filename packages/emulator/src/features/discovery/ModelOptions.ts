/**
 * GET /api/model/options[?refresh=1] (bearer; 0.21.0 only — 0.19.0's API server has no such route,
 * observed live as aiohttp's 404). Upstream returns `build_model_options_payload(...)`: the
 * provider picker inventory `{providers, model, provider}` of the gateway's HERMES_HOME, which
 * depends on the credentials and network of the host. The emulator has no providers, so it answers
 * the shape with no rows and the agent's model and provider (agent/AgentIdentity.ts: the oracle
 * runner's `custom` / `hermetic-fake-model`). The row format is not modelled (the reference notes leave it open).
 */
import { Effect } from "effect"
import { AGENT_MODEL, AGENT_PROVIDER } from "../../agent/AgentIdentity.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler } from "../../http/Route.js"

// the agent's own model and provider (what cron jobs snapshot on 0.19.0 too), not a second copy
export const modelOptions: Handler = (ctx) =>
  Effect.sync(() => jsonResponse({ providers: [], model: AGENT_MODEL, provider: AGENT_PROVIDER }))
