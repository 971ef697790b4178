/**
 * GET /v1/toolsets (bearer): every configurable toolset with whether it is enabled for the
 * api_server platform (the `enabledToolsets` option; none by default, as in the oracle runner's
 * home), whether its keys are configured, and its tools (some appear only after the process ran
 * its first agent turn).
 */
import { Effect } from "effect"
import { jsonResponse } from "../../http/Exchange.js"
import type { Handler } from "../../http/Route.js"
import { hasRunAgentTurn } from "./AgentWarmth.js"
import { TOOLS_AFTER_FIRST_AGENT_TURN, TOOLSET_CATALOG } from "./ToolsetCatalog.js"

export const listToolsets: Handler = (ctx) =>
  Effect.sync(() => {
    const enabled = new Set(ctx.config.enabledToolsets)
    const warm = hasRunAgentTurn(ctx.gateway)
    const data = TOOLSET_CATALOG.map((t) => ({
      name: t.name,
      label: t.label,
      description: t.description,
      enabled: enabled.has(t.name),
      configured: t.configured,
      tools: (warm ? TOOLS_AFTER_FIRST_AGENT_TURN[t.name] : undefined) ?? t.tools
    }))
    return jsonResponse({ object: "list", platform: "api_server", data })
  })
