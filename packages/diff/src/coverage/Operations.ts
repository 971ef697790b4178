/**
 * The upstream API server's operations (0.19.0's route table, `_http_route_table` of the installed
 * gateway/platforms/api_server.py; 0.21.0 adds /v1/runs/{id}/steer). Ids match the emulator's route
 * ids, so coverage can say which operations the emulator implements. Exchanges are classified
 * by matching method and path against these templates (a `/p/{profile}` prefix is ignored).
 */
export interface Operation {
  readonly id: string
  readonly method: string
  readonly path: string
  readonly pins?: ReadonlyArray<string>
}

export const OPERATIONS: ReadonlyArray<Operation> = [
  { id: "health", method: "GET", path: "/health" },
  { id: "health.detailed", method: "GET", path: "/health/detailed" },
  { id: "health.v1", method: "GET", path: "/v1/health" },
  { id: "models.list", method: "GET", path: "/v1/models" },
  { id: "capabilities", method: "GET", path: "/v1/capabilities" },
  { id: "skills.list", method: "GET", path: "/v1/skills" },
  { id: "toolsets.list", method: "GET", path: "/v1/toolsets" },
  { id: "sessions.list", method: "GET", path: "/api/sessions" },
  { id: "sessions.create", method: "POST", path: "/api/sessions" },
  { id: "sessions.get", method: "GET", path: "/api/sessions/{session_id}" },
  { id: "sessions.patch", method: "PATCH", path: "/api/sessions/{session_id}" },
  { id: "sessions.delete", method: "DELETE", path: "/api/sessions/{session_id}" },
  { id: "sessions.messages", method: "GET", path: "/api/sessions/{session_id}/messages" },
  { id: "sessions.fork", method: "POST", path: "/api/sessions/{session_id}/fork" },
  { id: "sessions.chat", method: "POST", path: "/api/sessions/{session_id}/chat" },
  { id: "sessions.chat.stream", method: "POST", path: "/api/sessions/{session_id}/chat/stream" },
  { id: "sessions.model", method: "POST", path: "/api/sessions/{session_id}/model", pins: ["0.21.0"] },
  { id: "chat.completions", method: "POST", path: "/v1/chat/completions" },
  { id: "responses.create", method: "POST", path: "/v1/responses" },
  { id: "responses.get", method: "GET", path: "/v1/responses/{response_id}" },
  { id: "responses.delete", method: "DELETE", path: "/v1/responses/{response_id}" },
  { id: "platforms.events", method: "POST", path: "/api/platforms/{platform}/events" },
  { id: "jobs.list", method: "GET", path: "/api/jobs" },
  { id: "jobs.create", method: "POST", path: "/api/jobs" },
  { id: "jobs.get", method: "GET", path: "/api/jobs/{job_id}" },
  { id: "jobs.update", method: "PATCH", path: "/api/jobs/{job_id}" },
  { id: "jobs.delete", method: "DELETE", path: "/api/jobs/{job_id}" },
  { id: "jobs.pause", method: "POST", path: "/api/jobs/{job_id}/pause" },
  { id: "jobs.resume", method: "POST", path: "/api/jobs/{job_id}/resume" },
  { id: "jobs.run", method: "POST", path: "/api/jobs/{job_id}/run" },
  { id: "runs.create", method: "POST", path: "/v1/runs" },
  { id: "runs.get", method: "GET", path: "/v1/runs/{run_id}" },
  { id: "runs.events", method: "GET", path: "/v1/runs/{run_id}/events" },
  { id: "runs.approval", method: "POST", path: "/v1/runs/{run_id}/approval" },
  { id: "runs.steer", method: "POST", path: "/v1/runs/{run_id}/steer", pins: ["0.21.0"] },
  { id: "runs.stop", method: "POST", path: "/v1/runs/{run_id}/stop" }
]

const templateRegex = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`)
const COMPILED = OPERATIONS.map((op) => ({ op, regex: templateRegex(op.path) }))

/** The operation a request addresses: its id, or `other METHOD` for paths upstream does not route. */
export const operationOf = (method: string, path: string): string => {
  const bare = path.split("?")[0]?.replace(/^\/p\/[^/]+(?=\/)/, "") ?? path
  const m = method.toUpperCase()
  const hit = COMPILED.find((c) => c.op.method === m && c.regex.test(bare))
  if (hit !== undefined) return hit.op.id
  const pathOnly = COMPILED.find((c) => c.regex.test(bare))
  return pathOnly !== undefined ? `${pathOnly.op.id} (wrong method ${m})` : `unrouted ${m}`
}
