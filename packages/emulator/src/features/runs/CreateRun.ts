/**
 * POST /v1/runs: admit a run and answer 202 at once; the agent plays in the background.
 * 0.19.0 order: auth → draining → session-key header → concurrency cap → JSON → validation.
 * 0.21.0 adds the Idempotency-Key ledger: JSON → key validation → body validation → (keyed) prune,
 * lookup (replay / conflict) → concurrency cap → reserve, all in one transaction so that concurrent
 * identical submissions start exactly one run.
 */
import { Effect, Either } from "effect"
import { agentToolNames } from "../../agent/tools/ToolsetCatalog.js"
import { errorResponse } from "../../http/Envelopes.js"
import { type EmuResponse, jsonResponse } from "../../http/Exchange.js"
import { HandlerCrash, type Handler, type RouteContext } from "../../http/Route.js"
import type { StoredResponse } from "../responses/ResponseStore.js"
import { ephemeralSystemPromptOf } from "../../agent/ApiMessages.js"
import { startRun } from "./RunExecutor.js"
import { runsIn, type RunsServices } from "./Runs.js"
import { admitKeyed, type KeyedAdmission, ownerScope, runFingerprint } from "./RunLedger.js"
import { lookupRun } from "./RunLookup.js"
import { type RunRecord, setRunStatus } from "./RunRecord.js"
import { chainedResponse, readRunRequest, runHistory, type RunRequest, runSessionId } from "./RunRequest.js"
import { Ids, runId as newRunId } from "../../services/Ids.js"
import { admitAgentRequest, concurrencyLimited, parseSessionKeyHeader } from "../../http/Admission.js"
import { PyFloat, pyStr } from "../../python/index.js"

/** The queued status a new run starts with. */
const initialRecord = (ctx: RouteContext, runId: string, request: RunRequest, chained: StoredResponse | undefined, createdAt: number) =>
  setRunStatus(new Map(), runId, "queued", createdAt, {
    created_at: new PyFloat(createdAt),
    session_id: runSessionId(request, chained, runId),
    model: "model" in request.body ? request.body["model"] : ctx.config.modelName
  })

const conflict = () =>
  errorResponse(409, "Idempotency-Key was already used with a different request payload", { code: "idempotency_key_conflict" })

export const createRun: Handler<RunsServices> = (ctx) => admitAgentRequest(ctx, (release) => Effect.gen(() => admitRun(ctx, release)))

function* admitRun(ctx: RouteContext<RunsServices>, release: () => void) {
  const ledger = ctx.features.runsIdempotencyLedger
  const sessionKey = parseSessionKeyHeader(ctx)
  if (sessionKey._tag === "rejected") return sessionKey.response
  if (!ledger) {
    const limited = concurrencyLimited(ctx)
    if (limited !== undefined) return limited
  }
  const read = readRunRequest(ctx, yield* ctx.readBody)
  if (Either.isLeft(read)) return read.left instanceof HandlerCrash ? yield* read.left : read.left
  const request = read.right
  const chaining = chainedResponse(ctx, request)
  const chained = chaining === undefined ? undefined : yield* chaining
  const ids = yield* Ids
  const newRun = () => {
    const runId = newRunId(ids)
    return { runId, record: initialRecord(ctx, runId, request, chained, ctx.now()) }
  }

  let admission: KeyedAdmission<EmuResponse>
  if (request.idempotencyKey === "") {
    if (ledger) {
      const limited = concurrencyLimited(ctx)
      if (limited !== undefined) return limited
    }
    admission = { _tag: "new", ...newRun() }
  } else {
    const fingerprint = runFingerprint(request.py, sessionKey.key)
    if (fingerprint === undefined) return yield* new HandlerCrash({ reason: "surrogates not allowed" })
    admission = yield* ctx.storage.transaction(() =>
      admitKeyed(ctx.storage, ctx.namespace, {
        scope: ownerScope(ctx.config.profileName, ctx.config.apiKey),
        key: request.idempotencyKey,
        fingerprint,
        owner: ctx.gateway.owner,
        now: ctx.now(),
        limited: () => concurrencyLimited(ctx),
        newRun
      })
    )
  }

  const echo: Array<readonly [string, string]> =
    sessionKey.key === undefined ? [] : [["X-Hermes-Session-Key", sessionKey.key]]
  switch (admission._tag) {
    case "conflict":
      return conflict()
    case "limited":
      return admission.refusal
    case "replay": {
      const record = yield* lookupRun(ctx, admission.runId)
      return jsonResponse({ run_id: admission.runId, status: record?.["status"] ?? "queued", replayed: true }, 202, [
        ["Idempotency-Replayed", "true"],
        ...echo
      ])
    }
    case "new": {
      yield* startNew(ctx, admission.runId, admission.record, request, chained)
      release()
      const accepted = ctx.features.runsAcceptedHasReplayed
        ? { run_id: admission.runId, status: "started", replayed: false }
        : { run_id: admission.runId, status: "started" }
      return jsonResponse(accepted, 202, echo)
    }
  }
}

/** `instructions`, else a chained response's own: the run's ephemeral system prompt (a string only). */
const runInstructions = (request: RunRequest, chained: StoredResponse | undefined) => {
  const own = request.body["instructions"]
  return ephemeralSystemPromptOf(own === undefined || own === null ? chained?.instructions : own)
}

const startNew = (ctx: RouteContext<RunsServices>, runId: string, record: RunRecord, request: RunRequest, chained: StoredResponse | undefined) =>
  startRun(
    {
      runId,
      namespace: ctx.namespace,
      runs: runsIn(ctx),
      now: ctx.now,
      loopNow: ctx.loopNow,
      userMessage: request.userMessage,
      history: runHistory(request, chained),
      ...runInstructions(request, chained),
      enabledTools: agentToolNames(ctx.config.enabledToolsets)
    },
    record,
    request.idempotencyKey !== "",
    pyStr(record["session_id"])
  )
