/**
 * POST /v1/responses with `stream: true`: upstream's `_write_sse_responses`. Named SSE events, each
 * `data` carrying its `type` and a `sequence_number` counted from 0: response.created (and an
 * in_progress snapshot stored), the message item opened by the first text, text deltas,
 * output_text.done and output_item.done for the message, then response.completed — or
 * response.failed when the agent ends with an error and no text. No `[DONE]`. A client that goes
 * away before the terminal event leaves an `incomplete` snapshot behind and interrupts the agent.
 *
 * Text batching: upstream buffers text deltas for 50 ms and sends each batch as one delta, so how
 * text splits into deltas depends on timing. The emulator flushes deterministically at each point
 * where upstream's model stream pauses — the end of each model reply and before a held reply — so
 * the chunks of one reply become one delta. (Observed live: the chunks of one scripted reply
 * arrive as one delta; replies separated by a tool round arrive as separate deltas.) Differ
 * normalization: concatenate adjacent response.output_text.delta events of the same item and
 * renumber sequence_number before comparing; the joined text, the other events and their order
 * are compared exactly.
 *
 * Tools (observed live with the tools profile): each started tool opens a function_call item
 * (arguments re-serialized by json.dumps); its completion closes it and adds and closes a
 * function_call_output item with the result as one input_text part. Items take output indexes in
 * the order they open (the message item at its first text), and response.completed lists the
 * tool items before the message.
 */
import { KEEPALIVE_AFTER, KEEPALIVE_FRAME } from "../../http/SseKeepalive.js"
import { agentToolNames } from "../../agent/tools/ToolsetCatalog.js"
import { ephemeralSystemPromptOf } from "../../agent/ApiMessages.js"
import { Data, Effect, Either, Fiber, Option, Queue, Stream } from "effect"
import { Interrupt } from "../../agent/Interrupt.js"
import { type AgentTurnResult, type AgentUsage, type ExecutedToolCall, playAgentTurn } from "../../agent/AgentLoop.js"
import type { AgentMessage } from "../../agent/AgentMessages.js"
import type { EmuResponse } from "../../http/Exchange.js"
import { sseResponse } from "../../http/Exchange.js"
import type { AppServices, RouteContext } from "../../http/Route.js"
import { Ids, type IdsShape, messageItemId } from "../../services/Ids.js"
import { sessionTranscript } from "../sessions/SessionTranscript.js"
import { type StoredResponse, putStoredResponse, setConversation, sqlKey } from "./ResponseStore.js"
import { messageItem, storedHistory } from "./ResponseTranscript.js"
import { PyDict, pyDumps, pyJsonLoads, pyTruthy } from "../../python/index.js"

export interface StreamSpec {
  readonly responseId: string
  readonly model: unknown
  readonly createdAt: number
  readonly history: Array<AgentMessage>
  readonly userMessage: unknown
  readonly instructions: unknown
  readonly conversation: unknown
  readonly store: boolean
  readonly sessionId: string
  readonly headers: ReadonlyArray<readonly [string, string]>
}

type AgentSignal =
  | { readonly _tag: "delta"; readonly text: string }
  | { readonly _tag: "pause" }
  | { readonly _tag: "toolStart"; readonly call: ExecutedToolCall }
  | { readonly _tag: "toolDone"; readonly call: ExecutedToolCall }
  | { readonly _tag: "done"; readonly result: AgentTurnResult }

const ZERO_USAGE: AgentUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 }

/**
 * `json.dumps` of the dict `json.loads` read (NaN, 1.0, big ints and key order as Python keeps
 * them), else the text as it came (a tool runs only on a dict: agent/tools/ToolArguments.ts).
 */
const reserializedArguments = (json: string): string => {
  const parsed = pyJsonLoads(json)
  return Either.isRight(parsed) && parsed.right instanceof PyDict ? pyDumps(parsed.right) : json
}

/** A write to a client that has gone away (upstream: ConnectionResetError from response.write). */
class ClientGone extends Data.TaggedError("ClientGone") {}

/**
 * Upstream learns that the client left only by writing to it, and the first write after the
 * peer closed still goes out (TCP reports the reset on the next one): observed live, the second
 * write after a disconnect fails. Until then the turn carries on and its text is kept.
 */
const FAILING_WRITE_AFTER_DISCONNECT = 2

export const streamResponse = (ctx: RouteContext, spec: StreamSpec): Effect.Effect<EmuResponse, never, AppServices> =>
  Effect.gen(() => startStream(ctx, spec))

/** The SSE connection: the frames queued for the client, their numbering, and whether it left. */
interface Wire {
  readonly frames: Queue.Queue<string | null>
  /** The next event's `sequence_number`. */
  sequence: number
  clientGone: boolean
  writesSinceGone: number
}

/** The assistant message item: opened (an output index) at its first text. */
interface MessageItem {
  readonly id: string
  index: number | undefined
  readonly textParts: Array<string>
}

/** The tool items: as response.completed lists them (before the message), and the calls still open. */
interface ToolItems {
  readonly listed: Array<Record<string, unknown>>
  /** Started calls not completed yet, in start order: a completion takes the first with its id. */
  readonly open: Array<{ readonly callId: string; readonly item: Record<string, unknown>; readonly index: number }>
  /** Tool starts so far: the fallback call id of a call that has none counts them. */
  started: number
}

/** What the store keeps of the response: the snapshot written last, and the usage it reports. */
interface Snapshot {
  readonly conversationKey: string | null
  usage: AgentUsage
  /** The terminal snapshot is stored: a client leaving now leaves no incomplete one. */
  terminalPersisted: boolean
}

/** One stream's writing side: what its events are built from, and what changes as they go out. */
interface StreamState {
  readonly ctx: RouteContext
  readonly spec: StreamSpec
  readonly ids: IdsShape
  readonly wire: Wire
  readonly message: MessageItem
  readonly tools: ToolItems
  readonly snapshot: Snapshot
}

/**
 * Items take output indexes in the order they open, one each: every tool item is listed once
 * opened, and the message counts once it has opened.
 */
const nextOutputIndex = (state: StreamState): number => state.tools.listed.length + (state.message.index === undefined ? 0 : 1)

function* startStream(ctx: RouteContext, spec: StreamSpec) {
  const ids = yield* Ids
  const gw = ctx.gateway
  const signals = yield* Queue.unbounded<AgentSignal>()
  const interrupt = new Interrupt()

  // The agent starts in the handler, before the first event is written (upstream's ensure_future),
  // and counts as in flight from its first step until it ends, however it ends (as upstream's
  // `_run_agent` counts itself once its task runs)
  const agentFiber = yield* gw.agentTurnInFlight(playAgentTurn({
    namespace: ctx.namespace,
    operation: "responses.create",
    sessionId: spec.sessionId,
    userMessage: spec.userMessage,
    history: spec.history,
    ...ephemeralSystemPromptOf(spec.instructions),
    enabledTools: agentToolNames(ctx.config.enabledToolsets),
    interrupt,
    persist: sessionTranscript(ctx.namespace, spec.sessionId, ctx.now),
    callbacks: {
      onDelta: (text) => Queue.offer(signals, { _tag: "delta", text }),
      onPause: () => Queue.offer(signals, { _tag: "pause" }),
      onToolStart: (call) => Queue.offer(signals, { _tag: "toolStart", call }),
      onToolComplete: (call) => Queue.offer(signals, { _tag: "toolDone", call })
    }
  }).pipe(
    Effect.tap((result) => Queue.offer(signals, { _tag: "done", result }))
  )).pipe(Effect.forkDaemon)

  const message: MessageItem = { id: messageItemId(ids), index: undefined, textParts: [] }
  const frames = yield* Queue.unbounded<string | null>()
  const state: StreamState = {
    ctx,
    spec,
    ids,
    wire: { frames, sequence: 0, clientGone: false, writesSinceGone: 0 },
    message,
    tools: { listed: [], open: [], started: 0 },
    snapshot: { conversationKey: Either.getOrNull(sqlKey(spec.conversation)), usage: ZERO_USAGE, terminalPersisted: false }
  }

  // client gone (or the server cancelling the stream): keep an incomplete snapshot, stop the agent
  const abandon = persistIncomplete(state).pipe(
    Effect.zipRight(interrupt.set),
    Effect.zipRight(Fiber.interrupt(agentFiber))
  )
  yield* Effect.gen(() => writeEvents(state, signals)).pipe(
    Effect.catchTag("ClientGone", () => abandon),
    Effect.onInterrupt(() => abandon),
    Effect.ensuring(Queue.offer(frames, null)),
    Effect.forkDaemon
  )

  const body = Stream.fromQueue(frames).pipe(
    Stream.takeWhile((f): f is string => f !== null),
    // the client went away (the adapter interrupts the stream: EmuBody in http/Exchange.ts) or a fault
    // cut the stream; after a normal end this changes nothing
    Stream.ensuring(Effect.sync(() => void (state.wire.clientGone = true)))
  )
  return sseResponse(body, spec.headers)
}

const send = (wire: Wire, frame: () => string) =>
  Effect.suspend(() => {
    if (wire.clientGone && ++wire.writesSinceGone >= FAILING_WRITE_AFTER_DISCONNECT) return Effect.fail(new ClientGone())
    return Queue.offer(wire.frames, frame())
  })

// numbered when written, not when the effect is built
const write = (state: StreamState, type: string, data: Record<string, unknown>) =>
  send(state.wire, () => `event: ${type}\ndata: ${pyDumps({ type, ...data, sequence_number: state.wire.sequence++ })}\n\n`)

const envelope = (spec: StreamSpec, status: string) => ({
  id: spec.responseId,
  object: "response",
  status,
  created_at: spec.createdAt,
  model: spec.model
})

const persist = (state: StreamState, response: Record<string, unknown>, history: Array<AgentMessage>) =>
  Effect.gen(() => persistSnapshot(state, response, history))

function* persistSnapshot(state: StreamState, response: Record<string, unknown>, history: Array<AgentMessage>) {
  const { ctx, spec } = state
  if (!spec.store) return
  const data: StoredResponse = {
    response,
    conversation_history: history,
    instructions: spec.instructions,
    session_id: spec.sessionId
  }
  yield* putStoredResponse(ctx.namespace, spec.responseId, data, ctx.now(), ctx.features.storedResponsesCap)
  if (state.snapshot.conversationKey !== null && pyTruthy(spec.conversation)) {
    yield* setConversation(ctx.namespace, state.snapshot.conversationKey, spec.responseId)
  }
}

const withUser = (spec: StreamSpec) => [...spec.history, { role: "user", content: spec.userMessage }]

const openMessage = (state: StreamState) =>
  Effect.suspend(() => {
    if (state.message.index !== undefined) return Effect.void
    const index = nextOutputIndex(state)
    state.message.index = index
    return write(state, "response.output_item.added", {
      output_index: index,
      item: { id: state.message.id, type: "message", status: "in_progress", role: "assistant", content: [] }
    })
  })

/**
 * `_emit_tool_started`: a function_call item opens. A call without an id is streamed under
 * `call_<response id hex>_<start count>`, which no completion names (see completeTool).
 */
const toolStarted = (state: StreamState, call: ExecutedToolCall) =>
  Effect.suspend(() => {
    state.tools.started += 1
    const callId = call.id || `call_${state.spec.responseId.slice(5)}_${state.tools.started}`
    const item = {
      id: `fc_${state.ids.hex(24)}`,
      type: "function_call",
      status: "in_progress",
      name: call.name,
      call_id: callId,
      arguments: reserializedArguments(call.arguments)
    }
    const index = nextOutputIndex(state)
    state.tools.open.push({ callId, item, index })
    state.tools.listed.push({ type: "function_call", name: item.name, arguments: item.arguments, call_id: item.call_id })
    return write(state, "response.output_item.added", { output_index: index, item })
  })

/** `_emit_tool_completed`: the function_call closes, its output item opens and closes. */
const toolCompleted = (state: StreamState, call: ExecutedToolCall) => Effect.gen(() => completeTool(state, call))

function* completeTool(state: StreamState, call: ExecutedToolCall) {
  // upstream looks the completion up by the agent's own tool_call_id: one without an id (open
  // calls never have an empty one) or matching no open call writes nothing (the item stays in progress)
  const open = state.tools.open.find((o) => o.callId === call.id)
  if (open === undefined) return
  state.tools.open.splice(state.tools.open.indexOf(open), 1)
  yield* write(state, "response.output_item.done", { output_index: open.index, item: { ...open.item, status: "completed" } })
  const output = [{ type: "input_text", text: call.result ?? "" }]
  const item = { id: `fco_${state.ids.hex(24)}`, type: "function_call_output", call_id: call.id, output, status: "completed" }
  const index = nextOutputIndex(state)
  state.tools.listed.push({ type: "function_call_output", call_id: call.id, output })
  yield* write(state, "response.output_item.added", { output_index: index, item })
  yield* write(state, "response.output_item.done", { output_index: index, item })
}

const emitDelta = (state: StreamState, text: string) =>
  openMessage(state).pipe(
    Effect.zipRight(Effect.sync(() => state.message.textParts.push(text))),
    Effect.zipRight(Effect.suspend(() =>
      write(state, "response.output_text.delta", {
        item_id: state.message.id,
        output_index: state.message.index,
        content_index: 0,
        delta: text,
        logprobs: []
      })
    ))
  )

/**
 * `_persist_incomplete_if_needed`: what a vanished client leaves in the store — the tool items
 * already listed (a call is listed before its item is written, its output after the call's done
 * item went out), then the text so far (observed live on 0.19.0).
 */
const persistIncomplete = (state: StreamState) =>
  Effect.suspend(() => {
    if (!state.spec.store || state.snapshot.terminalPersisted) return Effect.void
    const text = state.message.textParts.join("")
    const output = [...state.tools.listed, ...(text === "" ? [] : [messageItem(text)])]
    const env = { ...envelope(state.spec, "incomplete"), output, usage: state.snapshot.usage }
    const history: Array<AgentMessage> = withUser(state.spec)
    if (text !== "") history.push({ role: "assistant", content: text })
    return persist(state, env, history)
  })

/** The events, from response.created to the terminal one, as the agent's signals arrive. */
function* writeEvents(state: StreamState, signals: Queue.Queue<AgentSignal>) {
  const { ctx, spec } = state
  const created = { ...envelope(spec, "in_progress"), output: [] }
  yield* write(state, "response.created", { response: created })
  yield* persist(state, created, withUser(spec))

  let buffer: Array<string> = []
  const flush = Effect.suspend(() => {
    if (buffer.length === 0) return Effect.void
    const text = buffer.join("")
    buffer = []
    return emitDelta(state, text)
  })
  let result: AgentTurnResult | undefined
  while (result === undefined) {
    const next = yield* Queue.take(signals).pipe(Effect.timeoutOption(KEEPALIVE_AFTER))
    if (Option.isNone(next)) {
      yield* send(state.wire, () => KEEPALIVE_FRAME)
      continue
    }
    const signal = next.value
    if (signal._tag === "delta") buffer.push(signal.text)
    else if (signal._tag === "pause") yield* flush
    else if (signal._tag === "toolStart") yield* flush.pipe(Effect.zipRight(toolStarted(state, signal.call)))
    else if (signal._tag === "toolDone") yield* flush.pipe(Effect.zipRight(toolCompleted(state, signal.call)))
    else result = signal.result
  }
  yield* flush
  state.snapshot.usage = result.usage

  const agentFinal = result.finalResponse
  if (agentFinal !== "" && state.message.textParts.length === 0) yield* emitDelta(state, agentFinal)
  const finalText = state.message.textParts.join("") || agentFinal
  const agentError = result.error !== undefined && finalText === "" ? result.error : undefined
  const message = state.message
  if (message.index !== undefined) {
    yield* write(state, "response.output_text.done", {
      item_id: message.id,
      output_index: message.index,
      content_index: 0,
      text: finalText,
      logprobs: []
    })
    yield* write(state, "response.output_item.done", {
      output_index: message.index,
      item: {
        id: message.id,
        type: "message",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: finalText }]
      }
    })
  }
  const output = [...state.tools.listed, messageItem(finalText !== "" ? finalText : agentError ?? "")]
  if (agentError !== undefined) {
    const failed = {
      ...envelope(spec, "failed"),
      output,
      error: { message: agentError, type: "server_error" },
      usage: result.usage
    }
    const history: Array<AgentMessage> = withUser(spec)
    history.push({ role: "assistant", content: finalText !== "" ? finalText : agentError })
    yield* persist(state, failed, history)
    state.snapshot.terminalPersisted = true
    yield* write(state, "response.failed", { response: failed })
  } else {
    const completed = { ...envelope(spec, "completed"), output, usage: result.usage }
    yield* persist(state, completed, storedHistory(ctx.features, spec.history, spec.userMessage, result, finalText))
    state.snapshot.terminalPersisted = true
    yield* write(state, "response.completed", { response: completed })
  }
}
