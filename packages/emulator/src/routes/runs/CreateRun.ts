/**
 * POST /v1/runs: admit a run and answer 202 at once; the agent plays in the background.
 * 0.19.0 order: auth → draining → session-key header → concurrency cap → JSON → validation.
 * 0.21.0 adds the Idempotency-Key ledger: JSON → key validation → body validation → (keyed) prune,
 * lookup (replay / conflict) → concurrency cap → reserve, all in one transaction so that concurrent
 * identical submissions start exactly one run.
 */
import { SqlClient } from "@effect/sql"
import { Deferred, Effect, Either, Queue } from "effect"
import { errorResponse } from "../../http/Envelopes.js"
import { type EmuResponse, jsonResponse } from "../../http/Exchange.js"
import { readJsonParsed } from "../../http/RequestBody.js"
import { HandlerCrash, type Handler, type RouteContext } from "../../http/Route.js"
import type { LiveRun } from "../../runs/GatewayState.js"
import { runTask } from "../../runs/RunExecutor.js"
import { findByKey, insertReservation, ownerScope, pruneExpired, runFingerprint } from "../../runs/RunLedger.js"
import { lookupRun } from "../../runs/RunLookup.js"
import type { AgentMessage } from "../../agent/AgentMessages.js"
import { markAgentTurn } from "../../discovery/AgentWarmth.js"
import { agentToolNames } from "../../discovery/ToolsetCatalog.js"
import { getStoredResponse, sqlKey, type StoredResponse } from "../../responses/ResponseStore.js"
import { type RunRecord, setRunStatus } from "../../runs/RunRecord.js"
import { Ids, runId as newRunId } from "../../services/Ids.js"
import { runUserMessage } from "../../sessions/RunUserMessage.js"
import { admitAgentRequest, concurrencyLimited, parseSessionKeyHeader } from "../Admission.js"
import { isDict, PyFloat, pyStr, pyStrip, pyTruthy } from "../../python/index.js"

const invalid = (message: string) => errorResponse(400, message)

/** Body checks shared by both pins; undefined when the body is acceptable. */
const validateBody = (body: Record<string, unknown>): Effect.Effect<EmuResponse | undefined, HandlerCrash> =>
  Effect.gen(function*() {
    const rawInput = body["input"]
    if (!pyTruthy(rawInput)) return invalid("Missing 'input' field")
    let userMessage: unknown = ""
    if (typeof rawInput === "string") userMessage = rawInput
    else if (Array.isArray(rawInput)) {
      const last: unknown = rawInput[rawInput.length - 1]
      // upstream calls .get on the last item: anything but a dict crashes the handler
      if (!isDict(last)) return yield* new HandlerCrash({ reason: "input[-1] has no attribute 'get'" })
      userMessage = "content" in last ? last["content"] : ""
    }
    if (!pyTruthy(userMessage)) return invalid("No user message found in input")
    const rawHistory = body["conversation_history"]
    if (pyTruthy(rawHistory)) {
      if (!Array.isArray(rawHistory)) return invalid("'conversation_history' must be an array of message objects")
      for (let i = 0; i < rawHistory.length; i++) {
        const entry: unknown = rawHistory[i]
        if (!isDict(entry) || !("role" in entry) || !("content" in entry)) {
          return invalid(`conversation_history[${i}] must have 'role' and 'content' fields`)
        }
      }
    }
    return undefined
  })

/**
 * previous_response_id without explicit history: the stored response's session (its transcript and
 * instructions would feed the agent, which the Script stands in for). An unknown id is ignored,
 * unlike on /v1/responses; the lookup still refreshes the response's LRU position, and a value
 * SQLite cannot bind crashes the handler, as upstream's does.
 */
const chainedResponse = (ctx: RouteContext, body: Record<string, unknown>) =>
  Effect.gen(function*() {
    const previous = body["previous_response_id"]
    if (pyTruthy(body["conversation_history"]) || !pyTruthy(previous)) return undefined
    const key = sqlKey(previous)
    if (Either.isLeft(key)) return yield* new HandlerCrash({ reason: key.left })
    return yield* getStoredResponse(ctx.namespace, key.right, ctx.now())
  })

/**
 * The history the run's agent sees, as upstream builds it: explicit conversation_history (role and
 * content as str), else the chained response's stored transcript, else every input item but the
 * last that has a pyTruthy role and content (a content list flattened to its text parts).
 */
const runHistory = (body: Record<string, unknown>, chained: StoredResponse | undefined): Array<AgentMessage> => {
  const explicit = body["conversation_history"]
  if (pyTruthy(explicit) && Array.isArray(explicit)) {
    return explicit.map((entry: unknown) => {
      const e = entry as Record<string, unknown>
      return { role: pyStr(e["role"]), content: pyStr(e["content"]) }
    })
  }
  if (chained !== undefined && chained.conversation_history.length > 0) return [...chained.conversation_history]
  const input = body["input"]
  if (!Array.isArray(input) || input.length < 2) return []
  const history: Array<AgentMessage> = []
  for (const msg of input.slice(0, -1)) {
    if (!isDict(msg) || !pyTruthy(msg["role"]) || !pyTruthy(msg["content"])) continue
    const content = msg["content"]
    const text = Array.isArray(content)
      ? content
        .filter((part: unknown) => isDict(part) && part["type"] === "text")
        .map((part: unknown) => {
          const t = (part as Record<string, unknown>)["text"]
          return t === undefined ? "" : pyStr(t)
        })
        .join(" ")
      : pyStr(content)
    history.push({ role: msg["role"], content: text })
  }
  return history
}


const IDEMPOTENCY_KEY_VALID = /^[\x21-\x7e]{1,255}$/

/** The queued status a new run starts with. */
const initialRecord = (
  ctx: RouteContext,
  runId: string,
  body: Record<string, unknown>,
  createdAt: number,
  chainedSessionId: unknown
) =>
  setRunStatus(new Map(), runId, "queued", createdAt, {
    created_at: new PyFloat(createdAt),
    session_id: pyTruthy(body["session_id"]) ? body["session_id"] : pyTruthy(chainedSessionId) ? chainedSessionId : runId,
    model: "model" in body ? body["model"] : ctx.config.modelName
  })

/** Puts the run in memory and starts its background task. */
const startRun = (
  ctx: RouteContext,
  runId: string,
  record: RunRecord,
  keyed: boolean,
  body: Record<string, unknown>,
  chained: StoredResponse | undefined
) =>
  Effect.gen(function*() {
    const gw = ctx.gateway
    const queue = yield* Queue.unbounded<Record<string, unknown> | null>()
    gw.runStreams.set(runId, { queue, createdAt: ctx.now() })
    gw.runStatuses.set(runId, record)
    if (keyed) gw.keyedRuns.set(runId, "queued")
    markAgentTurn(gw)
    const live: LiveRun = {
      runId,
      interrupt: yield* Deferred.make<void>(),
      fiber: undefined,
      agentStarted: false,
      stopping: false,
      approvals: [],
      steers: []
    }
    gw.liveRuns.set(runId, live)
    const spec = {
      runId,
      namespace: ctx.namespace,
      gateway: gw,
      now: ctx.now,
      userMessage: runUserMessage(body),
      history: runHistory(body, chained),
      enabledTools: agentToolNames(ctx.config.enabledToolsets)
    }
    live.fiber = yield* runTask(spec, live, pyStr(record["session_id"])).pipe(Effect.forkDaemon)
  })

type Admission =
  | { readonly _tag: "new"; readonly runId: string; readonly record: RunRecord }
  | { readonly _tag: "replay"; readonly runId: string }
  | { readonly _tag: "answer"; readonly response: EmuResponse }

export const createRun: Handler = (ctx) =>
  admitAgentRequest(ctx, (release) =>
    Effect.gen(function*() {
      const ledger = ctx.features.runsIdempotencyLedger
      const sessionKey = parseSessionKeyHeader(ctx)
      if (sessionKey._tag === "rejected") return sessionKey.response
      if (!ledger) {
        const limited = concurrencyLimited(ctx)
        if (limited !== undefined) return limited
      }
      const parsed = readJsonParsed(ctx.req)
      if (parsed._tag === "Left") return errorResponse(400, "Invalid JSON")
      const body = parsed.right.value
      const key = ledger ? pyStrip(ctx.req.headers["idempotency-key"] ?? "") : ""
      if (key !== "" && !IDEMPOTENCY_KEY_VALID.test(key)) {
        return errorResponse(400, "Idempotency-Key must be 1-255 visible ASCII characters", {
          code: "invalid_idempotency_key"
        })
      }
      // upstream calls body.get(...) on whatever json.loads returned: a non-object crashes the handler
      if (!isDict(body)) return yield* new HandlerCrash({ reason: "'body' has no attribute 'get'" })
      const rejected = yield* validateBody(body)
      if (rejected !== undefined) return rejected
      const chained = yield* chainedResponse(ctx, body)
      const chainedSessionId = chained?.session_id

      const ids = yield* Ids
      let admission: Admission
      if (key === "") {
        if (ledger) {
          const limited = concurrencyLimited(ctx)
          if (limited !== undefined) return limited
        }
        const runId = newRunId(ids)
        admission = { _tag: "new", runId, record: initialRecord(ctx, runId, body, ctx.now(), chainedSessionId) }
      } else {
        const fingerprint = runFingerprint(parsed.right.py, sessionKey.key)
        if (fingerprint === undefined) return yield* new HandlerCrash({ reason: "surrogates not allowed" })
        const scope = ownerScope(ctx.config.profileName, ctx.config.apiKey)
        const sql = yield* SqlClient.SqlClient
        admission = yield* sql.withTransaction(
          Effect.gen(function*() {
            yield* pruneExpired(ctx.namespace, ctx.now())
            const row = yield* findByKey(ctx.namespace, scope, key)
            if (row !== undefined) {
              if (row.fingerprint !== fingerprint) {
                return {
                  _tag: "answer",
                  response: errorResponse(409, "Idempotency-Key was already used with a different request payload", {
                    code: "idempotency_key_conflict"
                  })
                } satisfies Admission
              }
              return { _tag: "replay", runId: row.run_id } satisfies Admission
            }
            const limited = concurrencyLimited(ctx)
            if (limited !== undefined) return { _tag: "answer", response: limited } satisfies Admission
            const runId = newRunId(ids)
            const now = ctx.now()
            const record = initialRecord(ctx, runId, body, now, chainedSessionId)
            yield* insertReservation(ctx.namespace, {
              scope,
              idempotency_key: key,
              fingerprint,
              run_id: runId,
              owner: ctx.gateway.owner,
              created_at: now,
              updated_at: now,
              record
            })
            return { _tag: "new", runId, record } satisfies Admission
          })
        ).pipe(Effect.orDie)
      }

      const echo: Array<readonly [string, string]> =
        sessionKey.key === undefined ? [] : [["X-Hermes-Session-Key", sessionKey.key]]
      switch (admission._tag) {
        case "answer":
          return admission.response
        case "replay": {
          const record = yield* lookupRun(ctx, admission.runId)
          return jsonResponse({ run_id: admission.runId, status: record?.["status"] ?? "queued", replayed: true }, 202, [
            ["Idempotency-Replayed", "true"],
            ...echo
          ])
        }
        case "new": {
          yield* startRun(ctx, admission.runId, admission.record, key !== "", body, chained)
          release()
          const accepted = ctx.features.runsAcceptedHasReplayed
            ? { run_id: admission.runId, status: "started", replayed: false }
            : { run_id: admission.runId, status: "started" }
          return jsonResponse(accepted, 202, echo)
        }
      }
    })
  )
