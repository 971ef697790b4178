/**
 * The JSON of GET /v1/capabilities, key for key in upstream's order. 0.19.0: from the installed
 * source and observed live (evidence/cassette-sources/live/discovery-0.19.0.md). 0.21.0 adds, per the reference
 * notes §4.2 (not verified against a running 0.21.0): `runs_idempotency` after run_submission,
 * `run_steer` after run_stop, `model_options` after session_resources, `session_model_lock` after
 * session_fork, the `browser_extension_control` block, and the matching endpoints. Its browser
 * artifact constants are the ones the notes found in a stored version (also unconfirmed).
 */
import type { EmulatorConfigShape } from "../../config/EmulatorConfig.js"
import type { Features } from "../../version/Pins.js"
import { PyFloat } from "../../python/index.js"

const endpoint = (method: string, path: string) => ({ method, path })

const RUNTIME = {
  mode: "server_agent",
  tool_execution: "server",
  split_runtime: false,
  description:
    "The API server creates a server-side Hermes AIAgent; tools execute on the API-server host unless a future explicit split-runtime mode is enabled."
}

/** Runs idempotency ledger retention (24 h). */
const RUNS_IDEMPOTENCY_RETENTION_SECONDS = 86_400

const BROWSER_EXTENSION_CONTROL = {
  enabled: false,
  protocol_version: 1,
  capabilities: [
    "browser_back",
    "browser_click",
    "browser_navigate",
    "browser_press",
    "browser_screenshot",
    "browser_scroll",
    "browser_snapshot",
    "browser_tab_activate",
    "browser_tabs",
    "browser_type",
    "controller.noop"
  ],
  artifact_capabilities: ["browser_artifact_download", "browser_artifact_upload"],
  developer_capabilities: ["browser_cdp", "browser_evaluate"],
  developer_mode: false,
  artifact_transport: {
    upload: endpoint("POST", "/v1/artifacts/upload"),
    download: endpoint("GET", "/v1/artifacts/download/{artifact_id}"),
    max_bytes: 10 * 1024 * 1024,
    ttl_seconds: new PyFloat(300),
    allowed_mime_types: [
      "application/json",
      "application/pdf",
      "image/gif",
      "image/jpeg",
      "image/png",
      "image/webp",
      "text/plain"
    ]
  },
  real_browser_actions: true,
  transports: { local_vps: "websocket-subprotocol-ticket", cloud: "authenticated-gateway-rpc" }
}

/** `durable`: the emulator's ledger lives in its SQLite file unless it runs in memory. */
export const capabilitiesDocument = (features: Features, config: EmulatorConfigShape, model: string) => {
  const later = <T>(on: boolean, value: T): T | undefined => (on ? value : undefined)
  // Stryker disable next-line all: keyless mode: the emulator's own, since 0.19.0 refuses to start without API_SERVER_KEY, so no recording can judge it
  const keyRequired = config.apiKey !== ""
  return {
    object: "hermes.api_server.capabilities",
    platform: "hermes-agent",
    model,
    auth: { type: "bearer", required: keyRequired },
    runtime: RUNTIME,
    features: {
      chat_completions: true,
      chat_completions_streaming: true,
      responses_api: true,
      responses_streaming: true,
      run_submission: true,
      runs_idempotency: later(features.runsIdempotencyLedger, {
        supported: true,
        durable: config.sqliteFilename !== ":memory:",
        retention_seconds: RUNS_IDEMPOTENCY_RETENTION_SECONDS
      }),
      run_status: true,
      run_events_sse: true,
      run_stop: true,
      run_steer: later(features.runSteer, true),
      run_approval_response: true,
      tool_progress_events: true,
      approval_events: true,
      session_resources: true,
      model_options: later(features.modelOptionsRoute, true),
      session_chat: true,
      session_chat_streaming: true,
      session_fork: true,
      session_model_lock: later(features.sessionModelLock, true),
      admin_config_rw: false,
      jobs_admin: false,
      memory_write_api: false,
      skills_api: true,
      audio_api: false,
      realtime_voice: false,
      session_continuity_header: "X-Hermes-Session-Id",
      session_key_header: "X-Hermes-Session-Key",
      cors: config.corsOrigins.length > 0,
      browser_extension_control: later(features.browserExtensionControl, BROWSER_EXTENSION_CONTROL)
    },
    endpoints: {
      health: endpoint("GET", "/health"),
      health_detailed: endpoint("GET", "/health/detailed"),
      models: endpoint("GET", "/v1/models"),
      model_options: later(features.modelOptionsRoute, endpoint("GET", "/api/model/options")),
      chat_completions: endpoint("POST", "/v1/chat/completions"),
      responses: endpoint("POST", "/v1/responses"),
      runs: endpoint("POST", "/v1/runs"),
      run_status: endpoint("GET", "/v1/runs/{run_id}"),
      run_events: endpoint("GET", "/v1/runs/{run_id}/events"),
      run_approval: endpoint("POST", "/v1/runs/{run_id}/approval"),
      run_steer: later(features.runSteer, endpoint("POST", "/v1/runs/{run_id}/steer")),
      run_stop: endpoint("POST", "/v1/runs/{run_id}/stop"),
      skills: endpoint("GET", "/v1/skills"),
      toolsets: endpoint("GET", "/v1/toolsets"),
      sessions: endpoint("GET", "/api/sessions"),
      session_create: endpoint("POST", "/api/sessions"),
      session: endpoint("GET", "/api/sessions/{session_id}"),
      session_update: endpoint("PATCH", "/api/sessions/{session_id}"),
      session_delete: endpoint("DELETE", "/api/sessions/{session_id}"),
      session_messages: endpoint("GET", "/api/sessions/{session_id}/messages"),
      session_fork: endpoint("POST", "/api/sessions/{session_id}/fork"),
      session_chat: endpoint("POST", "/api/sessions/{session_id}/chat"),
      session_chat_stream: endpoint("POST", "/api/sessions/{session_id}/chat/stream"),
      session_model_lock: later(features.sessionModelLock, endpoint("POST", "/api/sessions/{session_id}/model")),
      browser_control_register: later(features.browserExtensionControl, endpoint("POST", "/v1/browser-control/register")),
      browser_control_ws: later(features.browserExtensionControl, endpoint("GET", "/v1/browser-control/ws")),
      artifact_upload: later(features.browserExtensionControl, endpoint("POST", "/v1/artifacts/upload")),
      artifact_download: later(features.browserExtensionControl, endpoint("GET", "/v1/artifacts/download/{artifact_id}"))
    }
  }
}
