/**
 * Every transformation the normalizer applies is a named rule with a written reason, and every
 * rule that was applied is listed in the evidence with how often it fired. Nothing is dropped or
 * rewritten without one of these.
 */
import { Schema } from "effect"

export const NormalizationRule = Schema.Struct({
  id: Schema.String,
  /** What the rule touches, for a reader: "header Date", "field *_at", "string run_<hex>". */
  applies: Schema.String,
  action: Schema.Literal("token", "drop", "relation"),
  reason: Schema.String
})
export type NormalizationRule = typeof NormalizationRule.Type

/** Server-made identifiers: replaced by `<kind:N>`, numbered by first appearance on each side. Order matters: longer shapes first. */
export interface IdPattern {
  readonly kind: string
  readonly pattern: RegExp
  readonly reason: string
}

export const ID_PATTERNS: ReadonlyArray<IdPattern> = [
  { kind: "run", pattern: /\brun_[0-9a-f]{32}\b/g, reason: "run ids are uuid4().hex; which id is random, where the same id reappears is behaviour (kept by numbering)" },
  { kind: "chatcmpl", pattern: /\bchatcmpl-[0-9A-Za-z]{8,}\b/g, reason: "chat completion ids are random hex" },
  { kind: "resp", pattern: /\bresp_[0-9A-Za-z]{16,}\b/g, reason: "stored response ids are random hex" },
  { kind: "msg", pattern: /\bmsg_[0-9A-Za-z]{16,}\b/g, reason: "message item ids are random hex" },
  { kind: "fc", pattern: /\bfc_[0-9A-Za-z]{16,}\b/g, reason: "function call item ids are random hex" },
  { kind: "fco", pattern: /\bfco_[0-9A-Za-z]{16,}\b/g, reason: "function call output item ids are random hex" },
  { kind: "call", pattern: /\bcall_[0-9A-Za-z]{8,}\b/g, reason: "tool call ids are random" },
  { kind: "api-session", pattern: /\bapi_\d{9,11}_[0-9a-f]{8}\b/g, reason: "server-made session ids embed time.time() and 8 random hex digits" },
  {
    kind: "play",
    pattern: /\bplay-[0-9a-f]{12}\b/g,
    reason: "{play.nonce}: the runner's fresh value per play, so idempotency caches and derived sessions that outlive a scenario on the real gateway are not shared between plays"
  },
  { kind: "uuid", pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, reason: "uuid4 values are random" },
  { kind: "cron-job", pattern: /\b[0-9a-f]{12}\b/g, reason: "cron job ids are uuid4().hex[:12]; any other lone 12-hex-digit string is taken for one too" }
]

/** Fields holding epoch seconds (or ISO times) that the server reads from its clock. */
export const TIMESTAMP_FIELD = /^(created|created_at|updated_at|completed_at|started_at|finished_at|ended_at|expires_at|cancelled_at|failed_at|last_active|last_updated|timestamp|ts|next_run_at|last_run_at)$/

/** An ISO-8601 date-time string (cron jobs report next_run_at / last_run_at this way). */
export const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/

/** Plausible epoch seconds (2001 … 5138): a number outside is left alone so a bogus value stays visible. */
export const isPlausibleEpoch = (n: number) => n >= 1e9 && n < 1e11

export interface HeaderRule {
  readonly name: string
  readonly reason: string
}

/** Headers left out of the comparison, each for a reason. Every other header is compared exactly. */
export const NOISE_HEADERS: ReadonlyArray<HeaderRule> = [
  { name: "date", reason: "the server's wall-clock second at send time; differs on every run" },
  { name: "server", reason: "names the HTTP stack (Python/aiohttp version), added by the transport, absent in process" },
  { name: "content-length", reason: "bodies are compared after normalization (ids, timestamps of different lengths); the length of the raw bytes follows from them" },
  { name: "connection", reason: "transport framing (keep-alive negotiation), not API behaviour; absent in process" },
  { name: "keep-alive", reason: "transport framing (keep-alive timeouts), not API behaviour; absent in process" },
  { name: "transfer-encoding", reason: "chunked vs sized framing is chosen by the transport; absent in process" }
]

export const RULES: ReadonlyArray<NormalizationRule> = [
  ...ID_PATTERNS.map((p) => ({ id: `id.${p.kind}`, applies: `strings matching ${p.pattern.source}`, action: "token" as const, reason: p.reason })),
  {
    id: "time.relations",
    applies: "numbers in epoch range under created/created_at/updated_at/…_at/timestamp, and ISO-8601 date-time strings anywhere (running clock only)",
    action: "relation",
    reason:
      "with a running clock the exact second differs on every run; each timestamp becomes <time:int|float> (the int/float type is still compared) and its relations are compared instead: created_at ≤ updated_at, per-object monotone, and clock jumps visible"
  },
  ...NOISE_HEADERS.map((h) => ({ id: `header.${h.name}`, applies: `header ${h.name}`, action: "drop" as const, reason: h.reason })),
  {
    id: "sse.keepalive",
    applies: "SSE comment frames `: keepalive`",
    action: "drop",
    reason: "sent after 30 s without an event: their number depends on timing, not on behaviour"
  },
  {
    id: "until.attempts",
    applies: "the number of polls an `until` step needed",
    action: "drop",
    reason: "how many polls it takes to settle depends on scheduling; whether the step settled is compared"
  }
]
