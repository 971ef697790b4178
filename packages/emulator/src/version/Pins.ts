/**
 * The one version table. Route code asks `features` what the pinned release does; nothing else in
 * the emulator compares version strings. Each entry says where the fact comes from.
 */
export const PINS = ["0.21.0", "0.19.0"] as const
export type Pin = (typeof PINS)[number]
export const DEFAULT_PIN: Pin = "0.21.0"

export const isPin = (value: string): value is Pin => (PINS as ReadonlyArray<string>).includes(value)

export interface Features {
  /** The version string /health reports. */
  readonly version: string
  /**
   * 401 body. 0.19.0 (installed source): `{"error": {"message": "Invalid API key", "type":
   * "invalid_request_error", "code": "invalid_api_key"}}`; 0.21.0 (reference notes): the gateway_auth
   * envelope.
   */
  readonly authFailure: { readonly message: string; readonly type: string; readonly code: string }
  /** 0.21.0 keeps a durable Idempotency-Key ledger for /v1/runs (24 h); 0.19.0 ignores the header. */
  readonly runsIdempotencyLedger: boolean
  /** 0.21.0's 202 carries `replayed`; 0.19.0 answers `{run_id, status}` only. */
  readonly runsAcceptedHasReplayed: boolean
  /** POST /v1/runs/{id}/steer exists from 0.21.0 on; 0.19.0 has no such route. */
  readonly runSteer: boolean
  /**
   * Session rows carry pinned/archived/hidden flags (shown as bools, PATCH-able with unread; archived
   * sessions leave the default list): 0.21.0 (reference notes §4.6, inferred detail); 0.19.0 has none.
   */
  readonly sessionFlags: boolean
  /** POST /api/sessions honours a `source` from an allow-list (0.21.0, reference notes); 0.19.0 always api_server. */
  readonly sessionCreateSource: boolean
  /**
   * GET /api/sessions/{id}/messages pages (limit ≤ 500, offset, order, `pagination` object): 0.21.0
   * (reference notes; error text inferred); 0.19.0 returns the whole transcript and ignores the query.
   */
  readonly sessionMessagesPagination: boolean
  /** GET /api/model/options exists from 0.21.0 on (0.19.0: absent, aiohttp 404 — observed live). */
  readonly modelOptionsRoute: boolean
  /**
   * /v1/chat/completions reads `provider` and `model_options` and rejects a `provider` that
   * contradicts a model_routes alias (0.21.0, reference notes); 0.19.0 reads `model` only.
   */
  readonly chatProviderSelection: boolean
  /** The body keys of the chat Idempotency-Key fingerprint (0.19.0 source; 0.21.0 reference notes §6). */
  readonly chatIdempotencyFingerprintKeys: ReadonlyArray<string>
  /** 0.21.0's /v1/capabilities advertises a session model lock route (reference notes); 0.19.0 has none. */
  readonly sessionModelLock: boolean
  /** 0.21.0's /v1/capabilities describes the browser-extension control surface (reference notes). */
  readonly browserExtensionControl: boolean
  /**
   * A /p/<profile>/ prefix on a single-profile gateway: 0.19.0 ignores it; 0.21.0 accepts only the
   * gateway's own profile name and answers 404 for any other.
   */
  readonly profilePrefixWithoutMultiplex: "ignore" | "own-profile-only"
  /**
   * POST /v1/runs/{id}/stop for a run with no live task: 0.19.0 answers 404 run_not_found whatever
   * the status; 0.21.0 answers 200 with the status when it is terminal, else 409 run_not_active.
   */
  readonly stopWithoutLiveTask: "not-found" | "terminal-status-else-conflict"
  /** MAX_STORED_RESPONSES: the Responses store's LRU size (100 in both; 0.19.0 source, 0.21.0 notes). */
  readonly storedResponsesCap: number
  /**
   * Body keys of the /v1/responses Idempotency-Key fingerprint. 0.19.0 (source): input,
   * instructions, previous_response_id, conversation, model, tools; 0.21.0 (notes §6) adds
   * provider and model_options.
   */
  readonly responsesFingerprintKeys: ReadonlyArray<string>
  /**
   * Non-streamed function_call / function_call_output items: 0.19.0 (source) writes them bare
   * (type, name, arguments, call_id / type, call_id, output); 0.21.0 (notes §4.4) adds an
   * `fc_`/`fco_` id and status "completed".
   */
  readonly responsesOutputItemIds: boolean
  /**
   * Which agent messages count as "this turn" for output items and what is stored to chain from.
   * 0.19.0 (source, observed live): the turn starts after the history only when the agent's
   * transcript still begins with the history by value — it rarely does (the agent stamps and
   * repairs the dicts), so output lists the whole repaired transcript's tool calls and the stored
   * history grows by a second copy each turn. 0.21.0 (notes §4.4 "current turn only"; docs):
   * output is the current turn and the stored chain is the agent's repaired transcript.
   */
  readonly responsesTurnBoundary: "history-prefix-match" | "current-turn"
}

const FEATURES: Record<Pin, Features> = {
  "0.19.0": {
    version: "0.19.0",
    authFailure: { message: "Invalid API key", type: "invalid_request_error", code: "invalid_api_key" },
    runsIdempotencyLedger: false,
    runsAcceptedHasReplayed: false,
    runSteer: false,
    sessionFlags: false,
    sessionCreateSource: false,
    sessionMessagesPagination: false,
    modelOptionsRoute: false,
    chatProviderSelection: false,
    chatIdempotencyFingerprintKeys: ["model", "messages", "tools", "tool_choice", "stream"],
    sessionModelLock: false,
    browserExtensionControl: false,
    profilePrefixWithoutMultiplex: "ignore",
    stopWithoutLiveTask: "not-found",
    storedResponsesCap: 100,
    responsesFingerprintKeys: ["input", "instructions", "previous_response_id", "conversation", "model", "tools"],
    responsesOutputItemIds: false,
    responsesTurnBoundary: "history-prefix-match"
  },
  "0.21.0": {
    version: "0.21.0",
    authFailure: {
      message: "Invalid gateway API key (API_SERVER_KEY)",
      type: "gateway_auth_error",
      code: "gateway_auth_failed"
    },
    runsIdempotencyLedger: true,
    runsAcceptedHasReplayed: true,
    runSteer: true,
    sessionFlags: true,
    sessionCreateSource: true,
    sessionMessagesPagination: true,
    modelOptionsRoute: true,
    chatProviderSelection: true,
    chatIdempotencyFingerprintKeys: ["model", "provider", "model_options", "messages", "tools", "tool_choice", "stream"],
    sessionModelLock: true,
    browserExtensionControl: true,
    profilePrefixWithoutMultiplex: "own-profile-only",
    stopWithoutLiveTask: "terminal-status-else-conflict",
    storedResponsesCap: 100,
    responsesFingerprintKeys: [
      "input",
      "instructions",
      "previous_response_id",
      "conversation",
      "model",
      "provider",
      "model_options",
      "tools"
    ],
    responsesOutputItemIds: true,
    responsesTurnBoundary: "current-turn"
  }
}

export const features = (pin: Pin): Features => FEATURES[pin]
