/**
 * Every transformation the normalizer applies is one record here: its id, the pattern it matches,
 * the action taken and the written reason. normalizeRun applies these records (never a rule known
 * only by its id), and every rule is listed in the evidence with how often it fired. Nothing is
 * dropped or rewritten without one of these.
 */
import { Schema } from "effect"

export const NormalizationRule = Schema.Struct({
  id: Schema.String,
  /** What the rule touches, for a reader: "header Date", "field *_at", "string run_<hex>". */
  applies: Schema.String,
  action: Schema.Literal("token", "drop", "relation", "join"),
  reason: Schema.String
})
export type NormalizationRule = typeof NormalizationRule.Type

/** A rule as the evidence lists it. */
type Described = { readonly id: string; readonly applies: string; readonly action: NormalizationRule["action"]; readonly reason: string }

/** A rule record: what the evidence lists, plus the pattern the normalizer matches with. */
const rule = <R extends Described>(r: R): R => r

/** Server-made identifiers: replaced by `<kind:N>`, numbered by first appearance on each side. Order matters: longer shapes first. */
export interface IdRule extends Described {
  readonly action: "token"
  readonly kind: string
  readonly pattern: RegExp
  /**
   * An id built from another server-made id: the pattern's three groups are the text before, the
   * other id's random part and the text after. That part takes the other id's token, so which id it
   * was made from is compared, and the text around it exactly.
   */
  readonly embeds?: { readonly kind: string; readonly prefix: string }
}

const idRule = (kind: string, pattern: RegExp, reason: string): IdRule => ({ id: `id.${kind}`, applies: `strings matching ${pattern.source}`, action: "token", kind, pattern, reason })

export const ID_RULES: ReadonlyArray<IdRule> = [
  idRule("run", /\brun_[0-9a-f]{32}\b/g, "run ids are uuid4().hex; which id is random, where the same id reappears is behaviour (kept by numbering)"),
  idRule("chatcmpl", /\bchatcmpl-[0-9A-Za-z]{8,}\b/g, "chat completion ids are random hex"),
  idRule("resp", /\bresp_[0-9A-Za-z]{16,}\b/g, "stored response ids are random hex"),
  idRule("msg", /\bmsg_[0-9A-Za-z]{16,}\b/g, "message item ids are random hex"),
  idRule("fc", /\bfc_[0-9A-Za-z]{16,}\b/g, "function call item ids are random hex"),
  idRule("fco", /\bfco_[0-9A-Za-z]{16,}\b/g, "function call output item ids are random hex"),
  {
    ...idRule(
      "call-of-response",
      /\b(call_)([0-9a-f]{28})(_\d+)\b/g,
      "a streamed Responses tool call without an id is named call_<its response id's hex>_<count>: the hex is the response id's token, the count is compared"
    ),
    embeds: { kind: "resp", prefix: "resp_" }
  },
  idRule("call", /\bcall_[0-9A-Za-z]{8,}\b/g, "tool call ids are random"),
  idRule("api-session", /\bapi_\d{9,11}_[0-9a-f]{8}\b/g, "server-made session ids embed time.time() and 8 random hex digits"),
  idRule(
    "play",
    /\bplay-[0-9a-f]{12}\b/g,
    "{play.nonce}: the runner's fresh value per play, so idempotency caches and derived sessions that outlive a scenario on the real gateway are not shared between plays"
  ),
  idRule("uuid", /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "uuid4 values are random"),
  idRule("hex32", /\b[0-9a-f]{32}\b/g, "bare uuid4().hex values (a job execution's id in latest_execution, the scheduler's process id) are random"),
  idRule("cron-job", /\b[0-9a-f]{12}\b/g, "cron job ids are uuid4().hex[:12]; any other lone 12-hex-digit string is taken for one too")
]

/** Timestamps under a running clock: `<time:int|float|iso>`, their relations compared instead. */
export const TIME_RELATIONS = rule({
  id: "time.relations",
  applies: "numbers in epoch range under created/created_at/updated_at/…_at/timestamp, and ISO-8601 date-time strings anywhere (running clock only)",
  action: "relation" as const,
  reason:
    "with a running clock the exact second differs on every run; each timestamp becomes <time:int|float> (the int/float type is still compared) and its relations are compared instead: created_at ≤ updated_at, per-object monotone, and clock jumps visible",
  /** Fields holding epoch seconds that the server reads from its clock. */
  field: /^(created|created_at|updated_at|completed_at|started_at|finished_at|ended_at|expires_at|cancelled_at|failed_at|last_active|last_updated|timestamp|ts|next_run_at|last_run_at)$/,
  /** An ISO-8601 date-time string (cron jobs report next_run_at / last_run_at this way). */
  iso: /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/,
  /** Plausible epoch seconds (2001 … 5138): a number outside is left alone so a bogus value stays visible. */
  plausible: (n: number) => n >= 1e9 && n < 1e11
})

/** Headers left out of the comparison, each for a reason. Every other header is compared exactly. */
export interface HeaderRule extends Described {
  readonly action: "drop"
  readonly header: string
}

const headerRule = (header: string, reason: string): HeaderRule => ({ id: `header.${header}`, applies: `header ${header}`, action: "drop", header, reason })

export const HEADER_RULES: ReadonlyArray<HeaderRule> = [
  headerRule("date", "the server's wall-clock second at send time; differs on every run"),
  headerRule("server", "names the HTTP stack (Python/aiohttp version), added by the transport, absent in process"),
  headerRule("content-length", "bodies are compared after normalization (ids, timestamps of different lengths); the length of the raw bytes follows from them"),
  headerRule("connection", "transport framing (keep-alive negotiation), not API behaviour; absent in process"),
  headerRule("keep-alive", "transport framing (keep-alive timeouts), not API behaviour; absent in process"),
  headerRule("transfer-encoding", "chunked vs sized framing is chosen by the transport; absent in process")
]

export const SSE_KEEPALIVE = rule({
  id: "sse.keepalive",
  applies: "SSE comment frames `: keepalive`",
  action: "drop" as const,
  reason: "sent after 30 s without an event: their number depends on timing, not on behaviour",
  comment: "keepalive"
})

/** How long a tool ran, as run events report it: `<duration:float>`, the type still compared. */
export const TOOL_DURATION = rule({
  id: "tool.duration",
  applies: "the number `duration` of a `tool.completed` run event",
  action: "token" as const,
  reason: "the seconds a real tool took to run (the real terminal spawns a shell) depend on the machine; the emulator runs none. Whether the field is there, and its type, are compared",
  event: "tool.completed"
})

/** Responses streams: adjacent text deltas of one content part joined, then the events renumbered. */
export const RESPONSES_DELTA_JOIN = rule({
  id: "sse.responses-delta-join",
  applies: "adjacent `response.output_text.delta` events of one item and content part in a Responses stream; then `sequence_number` of that stream",
  action: "join" as const,
  reason:
    "upstream batches streamed text for 50 ms, so how a reply's text is cut into deltas depends on timing (a loaded machine cuts it differently from run to run); the joined text, the events around it and their order are compared",
  event: "response.output_text.delta",
  /** Deltas that belong together: same item, output and content index. */
  sameTarget: ["item_id", "output_index", "content_index"] as ReadonlyArray<string>,
  renumbered: "sequence_number"
})

export const UNTIL_ATTEMPTS = rule({
  id: "until.attempts",
  applies: "the number of polls an `until` step needed",
  action: "drop" as const,
  reason: "how many polls it takes to settle depends on scheduling; whether the step settled is compared"
})

/** Every rule, as the evidence lists them. */
export const RULES: ReadonlyArray<NormalizationRule> = [...ID_RULES, TIME_RELATIONS, ...HEADER_RULES, SSE_KEEPALIVE, RESPONSES_DELTA_JOIN, TOOL_DURATION, UNTIL_ATTEMPTS].map(({ id, applies, action, reason }) => ({ id, applies, action, reason }))
