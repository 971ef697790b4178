/**
 * The background task of one /v1/runs run (`_run_and_close`): it plays one agent turn through the
 * shared agent loop (the same Script semantics as every other agent route) and surfaces it as
 * Hermes' run events — message.delta per streamed chunk, reasoning.available for each reply's text
 * (seen on the real 0.19.0 gateway for every assistant message, the final answer included),
 * tool.started/tool.completed around tools the gateway has, approval.request when Hermes'
 * approval guard stops a tool — then settles the run as completed, failed or cancelled, in
 * upstream's order: a stop wins over the result.
 */
import { Deferred, Duration, Effect } from "effect"
import { markAgentTurn } from "../../agent/AgentWarmth.js"
import { type AgentTurnResult, type ExecutedToolCall, playAgentTurn } from "../../agent/AgentLoop.js"
import type { AgentMessage } from "../../agent/AgentMessages.js"
import type { DangerousMatch } from "../../agent/tools/DangerousCommands.js"
import type { ApprovalChoice } from "../../agent/tools/ToolCalls.js"
import { reasoningPreview } from "../../agent/ReasoningPreview.js"
import { previewRaises, toolPreview } from "../../agent/tools/ToolProgress.js"
import { parseToolArguments } from "../../agent/tools/ToolArguments.js"
import type { Agent } from "../../services/Agent.js"
import type { EmuClock } from "../../services/Clock.js"
import type { Storage } from "../../services/Storage.js"
import { sessionTranscript } from "../sessions/SessionTranscript.js"
import type { Gateways } from "../../services/GatewayProcess.js"
import { type RunEvent, runEvent } from "./RunEvents.js"
import type { RunRecord, RunStatus } from "./RunRecord.js"
import type { LiveRun, ProcessRuns } from "./ProcessRuns.js"
import { PyFloat, pyStr } from "../../python/index.js"

export interface RunSpec {
  readonly runId: string
  readonly namespace: string
  /** The run owner of the process the run belongs to. */
  readonly runs: ProcessRuns
  /** Wall time (time.time()). */
  readonly now: () => number
  /** Loop time: what the approval wait's time.monotonic() deadline reads (services/Clock.ts). */
  readonly loopNow: () => number
  /** The run's user message (the string input, or the last input item's content). */
  readonly userMessage: unknown
  /** Earlier messages the agent sees (explicit history, earlier input items). */
  readonly history: ReadonlyArray<AgentMessage>
  /** `instructions` (or the chained response's): sent after Hermes' system prompt. */
  readonly ephemeralSystemPrompt?: string
  /** Tools the api_server platform has; any other scripted tool call is an unknown tool. */
  readonly enabledTools: ReadonlySet<string>
}

/** `_put_event_if_active`: only while this run still owns its transport buffer. */
const putIfActive = (spec: RunSpec, event: RunEvent | null): Effect.Effect<void> => spec.runs.publish(spec.runId, event)

export const setStatus = (spec: RunSpec, status: RunStatus, fields: Record<string, unknown> = {}) =>
  Effect.suspend(() => spec.runs.writeStatus(spec.namespace, spec.runId, status, spec.now(), fields))

/** A progress event (tool, reasoning): refreshes last_event on the status, then queues the event. */
const pushProgress = (spec: RunSpec, event: RunEvent) =>
  Effect.suspend(() => {
    const current = spec.runs.status(spec.runId)
    const status = (current?.["status"] as RunStatus | undefined) ?? "running"
    return setStatus(spec, status, { last_event: event["event"] }).pipe(Effect.zipRight(putIfActive(spec, event)))
  })

/** The command the terminal tool was given: its `command` argument as json.loads read it (NaN beside it and all). */
const commandOf = (call: ExecutedToolCall): string => {
  if (call.approval?.command !== undefined) return call.approval.command
  const parsed = parseToolArguments(call.arguments)
  return parsed._tag === "Object" && "command" in parsed.args ? pyStr(parsed.args["command"]) : ""
}

/**
 * Hermes' approval guard: the request joins the run's FIFO of pending approvals, the status turns
 * waiting_for_approval, and the agent blocks until POST .../approval answers it (or a stop). The
 * event carries the approval core's fields, then the run's event fields and the choices.
 */
/** approvals.timeout (Hermes' default, and the tools profile's): silence is a denial after this. */
const APPROVAL_TIMEOUT_SECONDS = 60

/**
 * Upstream waits in 1 s slices of threading.Event.wait until 60 s of time.monotonic() have passed,
 * checking for an interrupt between slices. Here the deadline is on the namespace's loop clock,
 * read every 100 ms, so a jump past it ends the wait at once (as on the real gateway under
 * libfaketime with the runner's sem_clockwait shim), a set to the past puts it that much further
 * away, and a wall-only move leaves it alone; a stop is seen at the next 1 s slice.
 */
const approvalTimeout = (spec: RunSpec) => {
  const deadline = spec.loopNow() + APPROVAL_TIMEOUT_SECONDS
  return Effect.sleep(Duration.millis(100)).pipe(Effect.repeat({ until: () => spec.loopNow() >= deadline }), Effect.as("timeout" as const))
}

const awaitApproval = (spec: RunSpec, live: LiveRun, call: ExecutedToolCall, match: DangerousMatch) =>
  Effect.gen(() => approvalWait(spec, live, call, match))

function* approvalWait(spec: RunSpec, live: LiveRun, call: ExecutedToolCall, match: DangerousMatch) {
  const request = {
    command: commandOf(call),
    pattern_key: match.patternKey,
    pattern_keys: [match.patternKey],
    description: match.description,
    allow_permanent: true
  }
  const answer = yield* Deferred.make<string>()
  const pending = { request, answer }
  live.approvals.push(pending)
  yield* setStatus(spec, "waiting_for_approval", { last_event: "approval.request" })
  yield* putIfActive(spec, {
    ...request,
    ...runEvent("approval.request", spec.runId, spec.now()),
    choices: ["once", "session", "always", "deny"]
  })
  // the answer, the timeout, or a stop seen at the next slice (then the request is resolved as a denial)
  const choice = yield* Effect.raceAll([
    Deferred.await(answer).pipe(Effect.map((choice) => choice as ApprovalChoice)),
    approvalTimeout(spec),
    live.interrupt.await.pipe(
      Effect.zipRight(Effect.sleep(Duration.seconds(1))),
      Effect.zipRight(Deferred.succeed(answer, "deny")),
      Effect.as("deny" as const)
    )
  ])
  // upstream drops the entry when its wait ends: a later answer finds nothing pending
  const at = live.approvals.indexOf(pending)
  if (at >= 0) live.approvals.splice(at, 1)
  return choice
}

const playTurn = (spec: RunSpec, live: LiveRun, sessionId: string): Effect.Effect<AgentTurnResult, never, Agent | Gateways | Storage | EmuClock> =>
  // the callbacks' status writes reach the ledger through the run task's own Storage
  playAgentTurn({
    namespace: spec.namespace,
    operation: "runs.create",
    sessionId,
    userMessage: spec.userMessage,
    history: spec.history,
    ...(spec.ephemeralSystemPrompt === undefined ? {} : { ephemeralSystemPrompt: spec.ephemeralSystemPrompt }),
    interrupt: live.interrupt,
    enabledTools: spec.enabledTools,
    approvalSession: spec.runId,
    persist: sessionTranscript(spec.namespace, sessionId, spec.now),
    callbacks: {
      onDelta: (chunk) =>
        spec.runs.hasStream(spec.runId)
          ? putIfActive(spec, runEvent("message.delta", spec.runId, spec.now(), { delta: chunk }))
          : Effect.void,
      onAssistantReply: (text) => {
        const thinking = reasoningPreview(text)
        return thinking === "" ? Effect.void : pushProgress(spec, runEvent("reasoning.available", spec.runId, spec.now(), { text: thinking }))
      },
      onToolStart: (call) =>
        previewRaises(call) ? Effect.void : pushProgress(spec, runEvent("tool.started", spec.runId, spec.now(), { tool: call.name, preview: toolPreview(call) })),
      onToolApproval: (call, match) => awaitApproval(spec, live, call, match),
      onToolComplete: (call) =>
        pushProgress(
          spec,
          runEvent("tool.completed", spec.runId, spec.now(), {
            tool: call.name,
            duration: new PyFloat(0),
            error: call.failed === true
          })
        ).pipe(
          // a steer waiting when a tool finishes rides along with the tool result: consumed
          Effect.zipRight(Effect.sync(() => void live.steers.splice(0)))
        )
    }
  })

/** `_run_and_close`: the whole life of the run's background task. */
export const runTask = (spec: RunSpec, live: LiveRun, sessionId: string) => Effect.gen(() => runAndClose(spec, live, sessionId))

function* runAndClose(spec: RunSpec, live: LiveRun, sessionId: string) {
  yield* setStatus(spec, "running")
  if (live.stopping) {
    yield* putIfActive(spec, runEvent("run.cancelled", spec.runId, spec.now()))
    yield* setStatus(spec, "cancelled", { last_event: "run.cancelled" })
    return
  }
  live.agentStarted = true
  const result = yield* playTurn(spec, live, sessionId)
  if (live.stopping) {
    yield* putIfActive(spec, runEvent("run.cancelled", spec.runId, spec.now()))
    yield* setStatus(spec, "cancelled", { last_event: "run.cancelled" })
  } else if (result.failed) {
    const error = result.error ?? "agent run failed"
    yield* putIfActive(spec, runEvent("run.failed", spec.runId, spec.now(), { error }))
    yield* setStatus(spec, "failed", { error, last_event: "run.failed" })
  } else {
    // a steer nothing consumed is handed back as pending_steer (0.21.0; 0.19.0 has no steer)
    const pending = live.steers.length > 0 ? { pending_steer: live.steers.join("\n") } : {}
    yield* putIfActive(
      spec,
      runEvent("run.completed", spec.runId, spec.now(), { output: result.finalResponse, usage: result.usage, ...pending })
    )
    yield* setStatus(spec, "completed", {
      output: result.finalResponse,
      usage: result.usage,
      ...pending,
      last_event: "run.completed"
    })
  }
}

/**
 * A new run enters the process' memory (status, event buffer, live run; keyed runs are tracked
 * for the ledger) and its background task starts.
 */
export const startRun = (spec: RunSpec, record: RunRecord, keyed: boolean, sessionId: string) =>
  Effect.gen(() => enterAndStart(spec, record, keyed, sessionId))

function* enterAndStart(spec: RunSpec, record: RunRecord, keyed: boolean, sessionId: string) {
  const live = yield* spec.runs.enter(spec.runId, record, keyed, spec.now())
  markAgentTurn(spec.runs.process)
  // however the task ends, ProcessRuns.attach ends the run's buffer and the run leaves live memory
  spec.runs.attach(live, yield* runTask(spec, live, sessionId).pipe(Effect.forkDaemon))
}
