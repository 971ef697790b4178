/**
 * What Hermes' agent writes to state.db for one turn, whichever route ran it (chat completions,
 * responses, runs, session chat, cron): the session row (created on first use with source
 * "api_server", or enriched where still empty), its system prompt snapshot, the user's message,
 * then per answered model call the token counters (the first accounted call also pins
 * sessions.model to the agent's model), and the turn's assistant and tool messages. A turn whose
 * model call failed leaves only the user's message. History a client sent along is not written:
 * the agent treats it as already persisted. Observed on the real 0.19.0 gateway: see
 * evidence/live/sessions-jobs-0.19.0.md.
 *
 * Routes call `recordAgentTurn` once the turn has settled.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { pyDumps } from "../http/PyJson.js"
import { pyStr } from "../http/PyStr.js"
import { truthy } from "../http/RequestBody.js"
import { AGENT_MODEL, AGENT_MODEL_CONFIG, AGENT_SYSTEM_PROMPT_STANDIN } from "./AgentIdentity.js"
import { encodeContent } from "./MessageContent.js"
import { replaceLoneSurrogates } from "./SessionTitle.js"
import { getSession, insertMessage, toolCallCountOf, upsertSession } from "./SessionStore.js"

/** One message of the turn as the agent holds it (OpenAI chat shape plus Hermes' extras). */
export type TurnMessage = Readonly<Record<string, unknown>>

export interface AgentTurnRecord {
  /** The session the agent ran under (a derived, named, or run id). */
  readonly sessionId: string
  /** The turn's messages in order, starting with the user's own; later ones are assistant/tool. */
  readonly messages: ReadonlyArray<TurnMessage>
  /** Tokens per answered model call, in order; their count is the turn's accounted API calls. */
  readonly calls: ReadonlyArray<{ readonly input_tokens: number; readonly output_tokens: number }>
  /** Session source; "api_server" for every API route, "cron" for scheduled jobs. */
  readonly source?: string
  readonly now: number
}

const text = (v: unknown): string | null => (v === null || v === undefined ? null : replaceLoneSurrogates(pyStr(v)))

const recordMessage = (ns: string, sessionId: string, m: TurnMessage, now: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const role = typeof m["role"] === "string" ? m["role"] : "unknown"
    const calls = m["tool_calls"]
    const content = m["content"]
    yield* insertMessage(ns, sessionId, {
      role,
      content: typeof content === "string" ? replaceLoneSurrogates(content) : encodeContent(content),
      toolCallId: text(m["tool_call_id"]),
      toolCalls: truthy(calls) ? pyDumps(calls) : null,
      toolName: text(m["tool_name"]),
      timestamp: now,
      tokenCount: null,
      finishReason: text(m["finish_reason"]),
      reasoning: text(m["reasoning"]),
      reasoningContent: text(m["reasoning_content"])
    })
    const count = calls === null || calls === undefined ? 0 : toolCallCountOf(calls)
    yield* sql`UPDATE hermes_sessions SET message_count = message_count + 1, tool_call_count = tool_call_count + ${count}
               WHERE namespace = ${ns} AND id = ${sessionId}`.pipe(Effect.orDie)
  })

const accountCall = (ns: string, sessionId: string, tokens: AgentTurnRecord["calls"][number]) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const row = yield* getSession(ns, sessionId)
    // the first accounted call of a session records the route that served it
    if (row !== undefined && row.api_call_count === 0) {
      yield* sql`UPDATE hermes_sessions SET model = ${AGENT_MODEL} WHERE namespace = ${ns} AND id = ${sessionId}`.pipe(Effect.orDie)
    }
    yield* sql`UPDATE hermes_sessions SET
                 input_tokens = input_tokens + ${tokens.input_tokens},
                 output_tokens = output_tokens + ${tokens.output_tokens},
                 estimated_cost_usd = COALESCE(estimated_cost_usd, 0) + 0.0,
                 model = COALESCE(model, ${AGENT_MODEL}),
                 api_call_count = api_call_count + 1
               WHERE namespace = ${ns} AND id = ${sessionId}`.pipe(Effect.orDie)
  })

export const recordAgentTurn = (ns: string, turn: AgentTurnRecord) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(
      Effect.gen(function*() {
        yield* upsertSession(ns, {
          id: turn.sessionId,
          source: turn.source ?? "api_server",
          model: AGENT_MODEL,
          modelConfig: AGENT_MODEL_CONFIG,
          systemPrompt: AGENT_SYSTEM_PROMPT_STANDIN,
          parentSessionId: null,
          startedAt: turn.now
        })
        yield* sql`UPDATE hermes_sessions SET system_prompt = ${AGENT_SYSTEM_PROMPT_STANDIN}
                   WHERE namespace = ${ns} AND id = ${turn.sessionId}`
        const [user, ...rest] = turn.messages
        if (user !== undefined) yield* recordMessage(ns, turn.sessionId, user, turn.now)
        for (const call of turn.calls) yield* accountCall(ns, turn.sessionId, call)
        for (const m of rest) yield* recordMessage(ns, turn.sessionId, m, turn.now)
      })
    )
  }).pipe(Effect.orDie)
