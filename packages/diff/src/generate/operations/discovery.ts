/** Read-only discovery: models, capabilities, skills, toolsets, detailed health; with and without a key. */
import * as fc from "fast-check"
import type { HttpRequestSpec } from "../../scenario/Scenario.js"
import { command, type OperationCommands } from "./Operation.js"

const REQUESTS: ReadonlyArray<HttpRequestSpec> = [
  { method: "GET", path: "/v1/models" },
  { method: "GET", path: "/v1/models", auth: "none" },
  { method: "GET", path: "/v1/capabilities" },
  { method: "GET", path: "/v1/skills" },
  { method: "GET", path: "/health/detailed", auth: "none" }
]

export const discoveryOperation: OperationCommands = {
  id: "discovery",
  requiresRoutes: ["models.list", "capabilities", "skills.list", "toolsets.list", "health.detailed"],
  commands: () => [
    fc.constantFrom(...REQUESTS).map((request) => command(`${request.method} ${request.path}${request.auth ? ` (auth ${request.auth})` : ""}`, () => true, (_m, b) => b.add({ request }))),
    // its answer depends on whether the process ran an agent turn yet: only asked when that is known
    fc.constant(command("GET /v1/toolsets", (m) => m.warmth !== "unknown", (_m, b) => b.add({ request: { method: "GET", path: "/v1/toolsets" } })))
  ]
}
