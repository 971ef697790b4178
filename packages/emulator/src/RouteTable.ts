/**
 * The one route table: the routes of the pinned release in upstream's registration order, then
 * the control plane's commands under /__admin (upstream has no such prefix; their rows live with
 * their handlers in features/admin/AdminRoutes.ts). Routes a pin does not
 * have are simply absent, so aiohttp's 404/405 answers follow from the table. `auth` says what the
 * app checks before the handler runs: "bearer" the API key (http/Auth.ts), "admin" the control
 * plane's guard (http/AdminGate.ts); a control-plane path that no command matches is its 404.
 */
import type { AdminRoute, ApiRoute, Route } from "./http/Route.js"
import type { EmulatorServices } from "./EmulatorServices.js"
import type { Features } from "./version/Pins.js"
import { capabilities } from "./features/discovery/Capabilities.js"
import { healthDetailed } from "./features/discovery/HealthDetailed.js"
import { modelOptions } from "./features/discovery/ModelOptions.js"
import { listModels } from "./features/discovery/Models.js"
import { listSkills } from "./features/discovery/Skills.js"
import { listToolsets } from "./features/discovery/Toolsets.js"
import { chatCompletions } from "./features/chat/ChatCompletions.js"
import { health } from "./features/discovery/Health.js"
import { createJobRoute } from "./features/jobs/CreateJob.js"
import { deleteJobRoute } from "./features/jobs/DeleteJob.js"
import { getJobRoute } from "./features/jobs/GetJob.js"
import { pauseJobRoute, resumeJobRoute, runJobRoute } from "./features/jobs/JobActions.js"
import { listJobsRoute } from "./features/jobs/ListJobs.js"
import { updateJobRoute } from "./features/jobs/UpdateJob.js"
import { createResponse } from "./features/responses/CreateResponse.js"
import { deleteResponse } from "./features/responses/DeleteResponse.js"
import { getResponse } from "./features/responses/GetResponse.js"
import { createSessionRoute } from "./features/sessions/CreateSession.js"
import { deleteSessionRoute } from "./features/sessions/DeleteSession.js"
import { forkSessionRoute } from "./features/sessions/ForkSession.js"
import { getSessionRoute } from "./features/sessions/GetSession.js"
import { listSessionsRoute } from "./features/sessions/ListSessions.js"
import { patchSessionRoute } from "./features/sessions/PatchSession.js"
import { sessionMessagesRoute } from "./features/sessions/SessionMessages.js"
import { sessionChatRoute } from "./features/sessions/SessionChat.js"
import { sessionChatStreamRoute } from "./features/sessions/SessionChatStream.js"
import { sessionModelLockRoute } from "./features/sessions/SessionModelLock.js"
import { platformEvents } from "./features/platforms/PlatformEvents.js"
import { browserControlDisabled } from "./features/platforms/BrowserControlDisabled.js"
import { approveRun } from "./features/runs/ApproveRun.js"
import { createRun } from "./features/runs/CreateRun.js"
import { getRun } from "./features/runs/GetRun.js"
import { runEvents } from "./features/runs/RunEventsStream.js"
import { steerRun } from "./features/runs/SteerRun.js"
import { stopRun } from "./features/runs/StopRun.js"
import { CONTROL_PLANE_ROUTES } from "./features/admin/AdminRoutes.js"

/** Upstream's routes of the pin: what clients of the real gateway reach (fuzzing, coverage and recordings enumerate these). */
export const routesFor = (features: Features): ReadonlyArray<ApiRoute<EmulatorServices>> => [
  { id: "health", method: "GET", path: "/health", auth: "public", handler: health },
  { id: "health.detailed", method: "GET", path: "/health/detailed", auth: "bearer", handler: healthDetailed },
  { id: "health.v1", method: "GET", path: "/v1/health", auth: "public", handler: health },
  { id: "sessions.list", method: "GET", path: "/api/sessions", auth: "bearer", handler: listSessionsRoute },
  { id: "sessions.create", method: "POST", path: "/api/sessions", auth: "bearer", handler: createSessionRoute },
  { id: "sessions.get", method: "GET", path: "/api/sessions/{session_id}", auth: "bearer", handler: getSessionRoute },
  { id: "sessions.patch", method: "PATCH", path: "/api/sessions/{session_id}", auth: "bearer", handler: patchSessionRoute },
  { id: "sessions.delete", method: "DELETE", path: "/api/sessions/{session_id}", auth: "bearer", handler: deleteSessionRoute },
  { id: "sessions.messages", method: "GET", path: "/api/sessions/{session_id}/messages", auth: "bearer", handler: sessionMessagesRoute },
  { id: "sessions.fork", method: "POST", path: "/api/sessions/{session_id}/fork", auth: "bearer", handler: forkSessionRoute },
  { id: "sessions.chat", method: "POST", path: "/api/sessions/{session_id}/chat", auth: "bearer", handler: sessionChatRoute },
  { id: "sessions.chat.stream", method: "POST", path: "/api/sessions/{session_id}/chat/stream", auth: "bearer", handler: sessionChatStreamRoute },
  ...(features.sessionModelLock
    ? [{ id: "sessions.model", method: "POST", path: "/api/sessions/{session_id}/model", auth: "bearer", handler: sessionModelLockRoute } satisfies ApiRoute<EmulatorServices>]
    : []),
  { id: "models.list", method: "GET", path: "/v1/models", auth: "bearer", handler: listModels },
  ...(features.modelOptionsRoute
    ? [{ id: "model.options", method: "GET", path: "/api/model/options", auth: "bearer", handler: modelOptions } satisfies ApiRoute<EmulatorServices>]
    : []),
  { id: "capabilities", method: "GET", path: "/v1/capabilities", auth: "bearer", handler: capabilities },
  { id: "skills.list", method: "GET", path: "/v1/skills", auth: "bearer", handler: listSkills },
  { id: "toolsets.list", method: "GET", path: "/v1/toolsets", auth: "bearer", handler: listToolsets },
  { id: "responses.create", method: "POST", path: "/v1/responses", auth: "bearer", handler: createResponse },
  { id: "responses.get", method: "GET", path: "/v1/responses/{response_id}", auth: "bearer", handler: getResponse },
  { id: "responses.delete", method: "DELETE", path: "/v1/responses/{response_id}", auth: "bearer", handler: deleteResponse },
  // no API key: each platform adapter verifies its own event requests
  { id: "platforms.events", method: "POST", path: "/api/platforms/{platform}/events", auth: "public", handler: platformEvents },
  ...(features.browserExtensionControl
    ? ([
      // disabled by default: the 404 comes before any credential check (0.21.0 reference notes)
      { id: "browser_control.register", method: "POST", path: "/v1/browser-control/register", auth: "public", handler: browserControlDisabled },
      { id: "browser_control.ws", method: "GET", path: "/v1/browser-control/ws", auth: "public", handler: browserControlDisabled },
      { id: "artifacts.upload", method: "POST", path: "/v1/artifacts/upload", auth: "public", handler: browserControlDisabled },
      { id: "artifacts.download", method: "GET", path: "/v1/artifacts/download/{artifact_id}", auth: "public", handler: browserControlDisabled }
    ] satisfies ReadonlyArray<ApiRoute<EmulatorServices>>)
    : []),
  { id: "jobs.list", method: "GET", path: "/api/jobs", auth: "bearer", handler: listJobsRoute },
  { id: "jobs.create", method: "POST", path: "/api/jobs", auth: "bearer", handler: createJobRoute },
  { id: "jobs.get", method: "GET", path: "/api/jobs/{job_id}", auth: "bearer", handler: getJobRoute },
  { id: "jobs.update", method: "PATCH", path: "/api/jobs/{job_id}", auth: "bearer", handler: updateJobRoute },
  { id: "jobs.delete", method: "DELETE", path: "/api/jobs/{job_id}", auth: "bearer", handler: deleteJobRoute },
  { id: "jobs.pause", method: "POST", path: "/api/jobs/{job_id}/pause", auth: "bearer", handler: pauseJobRoute },
  { id: "jobs.resume", method: "POST", path: "/api/jobs/{job_id}/resume", auth: "bearer", handler: resumeJobRoute },
  { id: "jobs.run", method: "POST", path: "/api/jobs/{job_id}/run", auth: "bearer", handler: runJobRoute },
  { id: "chat.completions", method: "POST", path: "/v1/chat/completions", auth: "bearer", handler: chatCompletions },
  { id: "runs.create", method: "POST", path: "/v1/runs", auth: "bearer", handler: createRun },
  { id: "runs.get", method: "GET", path: "/v1/runs/{run_id}", auth: "bearer", handler: getRun },
  { id: "runs.events", method: "GET", path: "/v1/runs/{run_id}/events", auth: "bearer", handler: runEvents },
  { id: "runs.approval", method: "POST", path: "/v1/runs/{run_id}/approval", auth: "bearer", handler: approveRun },
  ...(features.runSteer
    ? [{ id: "runs.steer", method: "POST", path: "/v1/runs/{run_id}/steer", auth: "bearer", handler: steerRun } satisfies ApiRoute<EmulatorServices>]
    : []),
  { id: "runs.stop", method: "POST", path: "/v1/runs/{run_id}/stop", auth: "bearer", handler: stopRun }
]

/** The control plane's commands (features/admin/AdminRoutes.ts), typed as the app dispatches them. */
export const ADMIN_ROUTES: ReadonlyArray<AdminRoute<EmulatorServices>> = CONTROL_PLANE_ROUTES

/** Everything the app dispatches for a pin: upstream's routes, then the control plane. */
export const routeTable = (features: Features): ReadonlyArray<Route<EmulatorServices>> => [...routesFor(features), ...ADMIN_ROUTES]
