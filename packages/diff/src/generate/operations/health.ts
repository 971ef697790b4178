/** Health and routing: /health, /v1/health, an unrouted path (404), a wrong method (405). */
import * as fc from "fast-check"
import type { HttpRequestSpec } from "../../scenario/Scenario.js"
import { command, type OperationCommands } from "./Operation.js"

const REQUESTS: ReadonlyArray<HttpRequestSpec> = [
  { method: "GET", path: "/health", auth: "none" },
  { method: "GET", path: "/v1/health", auth: "none" },
  { method: "GET", path: "/v1/nowhere" },
  { method: "DELETE", path: "/v1/runs" }
]

export const healthOperation: OperationCommands = {
  id: "health",
  requiresRoutes: ["health", "health.v1"],
  commands: () => [fc.constantFrom(...REQUESTS).map((request) => command(`${request.method} ${request.path}`, () => true, (_m, b) => b.add({ request })))]
}
