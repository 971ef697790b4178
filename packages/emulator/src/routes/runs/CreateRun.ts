/**
 * POST /v1/runs: admit a run and answer 202 at once; the agent plays in the background.
 * Order as upstream: auth → draining → session-key header → concurrency cap → JSON → validation.
 */
import { Deferred, Effect, Queue } from "effect"
import { Agent } from "../../services/Agent.js"
import { errorResponse } from "../../http/Envelopes.js"
import { jsonResponse } from "../../http/Exchange.js"
import { PyFloat } from "../../http/PyJson.js"
import { isObject, readJson, truthy } from "../../http/RequestBody.js"
import { HandlerCrash, type Handler } from "../../http/Route.js"
import { Ids, runId as newRunId } from "../../services/Ids.js"
import type { LiveRun } from "../../runs/GatewayState.js"
import { runTask } from "../../runs/RunExecutor.js"
import { setRunStatus } from "../../runs/RunRecord.js"
import { admitAgentRequest, concurrencyLimited, parseSessionKeyHeader } from "../Admission.js"

const invalid = (message: string) => errorResponse(400, message)

export const createRun: Handler = (ctx) =>
  admitAgentRequest(ctx, (release) =>
    Effect.gen(function*() {
      const sessionKey = parseSessionKeyHeader(ctx)
      if (sessionKey._tag === "rejected") return sessionKey.response
      const limited = concurrencyLimited(ctx)
      if (limited !== undefined) return limited

      const parsed = readJson(ctx.req)
      if (parsed._tag === "Left") return errorResponse(400, "Invalid JSON")
      const body = parsed.right
      // upstream calls body.get(...) on whatever json.loads returned: a non-object crashes the handler
      if (!isObject(body)) return yield* new HandlerCrash({ reason: "'body' has no attribute 'get'" })

      const rawInput = body["input"]
      if (!truthy(rawInput)) return invalid("Missing 'input' field")
      let userMessage: unknown = ""
      if (typeof rawInput === "string") userMessage = rawInput
      else if (Array.isArray(rawInput)) {
        const last: unknown = rawInput[rawInput.length - 1]
        if (!isObject(last)) return yield* new HandlerCrash({ reason: "input[-1] has no attribute 'get'" })
        userMessage = "content" in last ? last["content"] : ""
      }
      if (!truthy(userMessage)) return invalid("No user message found in input")

      const rawHistory = body["conversation_history"]
      if (truthy(rawHistory)) {
        if (!Array.isArray(rawHistory)) return invalid("'conversation_history' must be an array of message objects")
        for (let i = 0; i < rawHistory.length; i++) {
          const entry: unknown = rawHistory[i]
          if (!isObject(entry) || !("role" in entry) || !("content" in entry)) {
            return invalid(`conversation_history[${i}] must have 'role' and 'content' fields`)
          }
        }
      }

      const ids = yield* Ids
      const runId = newRunId(ids)
      const sessionId = truthy(body["session_id"]) ? body["session_id"] : runId
      const createdAt = ctx.now()
      const gw = ctx.gateway
      const queue = yield* Queue.unbounded<Record<string, unknown> | null>()
      gw.runStreams.set(runId, { queue, createdAt })
      gw.approvalSessions.set(runId, runId)
      setRunStatus(gw.runStatuses, runId, "queued", createdAt, {
        created_at: new PyFloat(createdAt),
        session_id: sessionId,
        model: "model" in body ? body["model"] : ctx.config.modelName
      })

      const live: LiveRun = {
        runId,
        interrupt: yield* Deferred.make<void>(),
        fiber: undefined,
        agentStarted: false,
        approvals: [],
        steers: []
      }
      gw.liveRuns.set(runId, live)
      release()
      const agent = yield* Agent
      live.fiber = yield* runTask(
        { runId, namespace: ctx.namespace, gateway: gw, now: ctx.now, persist: () => Effect.void },
        live
      ).pipe(Effect.provideService(Agent, agent), Effect.forkDaemon)

      const headers: Array<readonly [string, string]> =
        sessionKey.key === undefined ? [] : [["X-Hermes-Session-Key", sessionKey.key]]
      const accepted = ctx.features.runsAcceptedHasReplayed
        ? { run_id: runId, status: "started", replayed: false }
        : { run_id: runId, status: "started" }
      return jsonResponse(accepted, 202, headers)
    })
  )
