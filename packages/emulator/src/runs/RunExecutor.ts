/**
 * The background task of one /v1/runs run: it takes the next Script turn and plays it as Hermes'
 * agent loop would surface it (message.delta per chunk, tool.started/tool.completed, reasoning),
 * then settles the run as completed, failed or cancelled, exactly in upstream's order of
 * "stopping wins over the result".
 */
import { Deferred, Effect, Queue } from "effect"
import { PyFloat } from "../http/PyJson.js"
import { pyStrip } from "../http/PyText.js"
import type { Reply, ToolApproval, ToolCall, Turn } from "../script/Script.js"
import { modelErrorText, replyChunks, replyText } from "../script/Script.js"
import { Agent } from "../services/Agent.js"
import { recordRunTurn } from "../sessions/RunTurnRecord.js"
import type { GatewayState, LiveRun } from "./GatewayState.js"
import { type RunEvent, runEvent } from "./RunEvents.js"
import type { RunStatus } from "./RunRecord.js"
import { writeRunStatus } from "./RunStatusWriter.js"

export interface RunSpec {
  readonly runId: string
  readonly namespace: string
  readonly gateway: GatewayState
  readonly now: () => number
  /** The run's user message, written to the session transcript (sessions/RunTurnRecord). */
  readonly userMessage?: unknown
}

export interface TurnOutcome {
  readonly finalResponse: string
  readonly failed: boolean
  readonly error: string | undefined
  readonly interrupted: boolean
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number; readonly total_tokens: number }
}

/** `_put_event_if_active`: only while this run still owns its transport buffer. */
const putIfActive = (spec: RunSpec, event: RunEvent | null): Effect.Effect<void> => {
  const stream = spec.gateway.runStreams.get(spec.runId)
  return stream === undefined ? Effect.void : Queue.offer(stream.queue, event).pipe(Effect.asVoid)
}

export const setStatus = (spec: RunSpec, status: RunStatus, fields: Record<string, unknown> = {}) =>
  Effect.suspend(() => writeRunStatus(spec.gateway, spec.namespace, spec.runId, status, spec.now(), fields))

/** A progress event (tool, reasoning): refreshes last_event on the status, then queues the event. */
const pushProgress = (spec: RunSpec, event: RunEvent) =>
  Effect.suspend(() => {
    const current = spec.gateway.runStatuses.get(spec.runId)
    const status = (current?.["status"] as RunStatus | undefined) ?? "running"
    return setStatus(spec, status, { last_event: event["event"] }).pipe(Effect.zipRight(putIfActive(spec, event)))
  })

const commandOf = (call: ToolCall): string => {
  if (call.approval?.command !== undefined) return call.approval.command
  const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {})
  const m = /"command"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(args)
  return m?.[1] ?? ""
}

/**
 * Hermes' approval guard: the request joins the run's FIFO of pending approvals, the status turns
 * waiting_for_approval, and the agent blocks until POST .../approval answers it (or a stop).
 * The event carries the approval core's fields, then the run's event fields and the choices.
 */
const awaitApproval = (spec: RunSpec, live: LiveRun, call: ToolCall, approval: ToolApproval) =>
  Effect.gen(function*() {
    const patternKey = approval.patternKey ?? "dangerous_command"
    const request = {
      command: commandOf(call),
      pattern_key: patternKey,
      pattern_keys: [patternKey],
      description: approval.description ?? "dangerous command",
      allow_permanent: true
    }
    const answer = yield* Deferred.make<string>()
    live.approvals.push({ request, answer })
    yield* setStatus(spec, "waiting_for_approval", { last_event: "approval.request" })
    yield* putIfActive(spec, {
      ...request,
      ...runEvent("approval.request", spec.runId, spec.now()),
      choices: ["once", "session", "always", "deny"]
    })
    return yield* Effect.raceFirst(
      Deferred.await(answer).pipe(Effect.map((choice) => choice !== "deny")),
      Deferred.await(live.interrupt).pipe(Effect.as(false))
    )
  })

/**
 * What Hermes' agent loop reports for each model reply it receives: the streamed text deltas as
 * they arrive, then — for a reply with text — `reasoning.available` carrying that text (stripped of
 * reasoning tags, first 500 characters; seen on the real 0.19.0 gateway for every assistant message,
 * the final answer included), then its tool calls.
 */
const playReply = (spec: RunSpec, live: LiveRun, reply: Reply) =>
  Effect.gen(function*() {
    for (const chunk of replyChunks(reply)) {
      if (!spec.gateway.runStreams.has(spec.runId)) continue
      yield* putIfActive(spec, runEvent("message.delta", spec.runId, spec.now(), { delta: chunk }))
    }
    const thinking = reasoningText(replyText(reply))
    if (thinking !== "") {
      yield* pushProgress(spec, runEvent("reasoning.available", spec.runId, spec.now(), { text: thinking }))
    }
    for (const call of reply.toolCalls ?? []) {
      yield* pushProgress(spec, runEvent("tool.started", spec.runId, spec.now(), { tool: call.name, preview: null }))
      const approved = call.approval === undefined ? true : yield* awaitApproval(spec, live, call, call.approval)
      yield* pushProgress(
        spec,
        runEvent("tool.completed", spec.runId, spec.now(), { tool: call.name, duration: new PyFloat(0), error: !approved })
      )
      // a steer waiting when a tool finishes rides along with the tool result: consumed
      live.steers.splice(0)
    }
  })

const REASONING_TAGS = /<\/?(?:REASONING_SCRATCHPAD|think|reasoning)>/g

/** The text Hermes reports as reasoning.available for an assistant message. */
export const reasoningText = (content: string): string =>
  [...pyStrip(pyStrip(content).replace(REASONING_TAGS, ""))].slice(0, 500).join("")

/** Plays a turn; a stop (interrupt) ends it at the next reply boundary or while a reply is held. */
export const playTurn = (spec: RunSpec, live: LiveRun, turn: Turn) =>
  Effect.gen(function*() {
    const agent = yield* Agent
    let input = 0
    let output = 0
    let finalResponse = ""
    const interrupted = () => Deferred.isDone(live.interrupt)
    for (const reply of turn.replies) {
      if (yield* interrupted()) break
      if (reply.hold !== undefined) {
        const released = yield* Effect.raceFirst(
          agent.awaitHold(spec.namespace, reply.hold).pipe(Effect.as(true)),
          Deferred.await(live.interrupt).pipe(Effect.as(false))
        )
        if (!released) break
      }
      if (reply.error !== undefined) {
        return {
          finalResponse: "",
          failed: true,
          error: modelErrorText(reply.error),
          interrupted: false,
          usage: { input_tokens: input, output_tokens: output, total_tokens: input + output }
        } satisfies TurnOutcome
      }
      yield* playReply(spec, live, reply)
      input += reply.usage?.prompt_tokens ?? 0
      output += reply.usage?.completion_tokens ?? 0
      if ((reply.toolCalls ?? []).length === 0) finalResponse = replyText(reply)
    }
    return {
      finalResponse,
      failed: false,
      error: undefined,
      interrupted: yield* interrupted(),
      usage: { input_tokens: input, output_tokens: output, total_tokens: input + output }
    } satisfies TurnOutcome
  })

/** `_run_and_close`: the whole life of the run's background task. */
export const runTask = (spec: RunSpec, live: LiveRun) =>
  Effect.gen(function*() {
    const agent = yield* Agent
    const gw = spec.gateway
    yield* setStatus(spec, "running")
    if (gw.stoppingRunIds.has(spec.runId)) {
      yield* putIfActive(spec, runEvent("run.cancelled", spec.runId, spec.now()))
      yield* setStatus(spec, "cancelled", { last_event: "run.cancelled" })
      return
    }
    live.agentStarted = true
    const turn = yield* agent.nextTurn(spec.namespace)
    const outcome = yield* playTurn(spec, live, turn)
    yield* recordRunTurn(spec, turn, outcome)
    if (gw.stoppingRunIds.has(spec.runId)) {
      yield* putIfActive(spec, runEvent("run.cancelled", spec.runId, spec.now()))
      yield* setStatus(spec, "cancelled", { last_event: "run.cancelled" })
    } else if (outcome.failed) {
      const error = outcome.error ?? "agent run failed"
      yield* putIfActive(spec, runEvent("run.failed", spec.runId, spec.now(), { error }))
      yield* setStatus(spec, "failed", { error, last_event: "run.failed" })
    } else {
      // a steer nothing consumed is handed back as pending_steer (0.21.0; 0.19.0 has no steer)
      const pending = live.steers.length > 0 ? { pending_steer: live.steers.join("\n") } : {}
      yield* putIfActive(
        spec,
        runEvent("run.completed", spec.runId, spec.now(), { output: outcome.finalResponse, usage: outcome.usage, ...pending })
      )
      yield* setStatus(spec, "completed", {
        output: outcome.finalResponse,
        usage: outcome.usage,
        ...pending,
        last_event: "run.completed"
      })
    }
  }).pipe(
    Effect.ensuring(
      Effect.suspend(() => {
        const gw = spec.gateway
        return putIfActive(spec, null).pipe(
          Effect.zipRight(
            Effect.sync(() => {
              gw.liveRuns.delete(spec.runId)
              gw.approvalSessions.delete(spec.runId)
              gw.stoppingRunIds.delete(spec.runId)
            })
          )
        )
      })
    )
  )
