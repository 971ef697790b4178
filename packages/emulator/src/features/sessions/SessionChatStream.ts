/**
 * POST /api/sessions/{session_id}/chat/stream: the same turn as …/chat over SSE with named events
 * (JSON written with ensure_ascii=False). Each payload gets session_id, run_id (`run_<32hex>`), a
 * 1-based seq and a float ts unless it already has them. Sequence (0.19.0 source, observed live):
 * run.started, message.started, then per model reply its assistant.delta chunks and, when it had
 * text, tool.progress "_thinking" carrying that text; then assistant.completed and run.completed
 * (the turn's assistant/tool messages as upstream finds the turn in the agent's transcript, see
 * SessionConversation.ts, and usage); `error` if the turn raised; always `done`.
 * The gateway runs no tools, so tool.started/completed/failed never occur. A model error is the
 * assistant's content, as on …/chat. The turn runs on even when the client goes away, as upstream's
 * executor thread does, so the session is written either way.
 */
import { toolArgumentsOf } from "../../agent/tools/ToolArguments.js"
import { previewRaises, toolPreview } from "../../agent/tools/ToolProgress.js"
import { agentToolNames } from "../../agent/tools/ToolsetCatalog.js"
import { Effect, Queue } from "effect"
import { keepaliveFrames } from "../../http/SseKeepalive.js"
import { playAgentTurn } from "../../agent/AgentLoop.js"
import { ephemeralSystemPromptOf } from "../../agent/ApiMessages.js"
import type { EmuResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import { Ids } from "../../services/Ids.js"
import { sessionTranscript } from "./SessionTranscript.js"
import { reasoningPreview } from "../../agent/ReasoningPreview.js"
import { parseSessionChat } from "./SessionChatRequest.js"
import { assistantAndToolMessages } from "./TurnMessages.js"
import { sessionConversation, turnReportedMessages } from "./SessionConversation.js"
import { admitAgentRequest } from "../../http/Admission.js"
import { pyDumps, PyFloat } from "../../python/index.js"
import { sessionIdHeader } from "../../http/HeaderText.js"

type Frame = { readonly name: string; readonly payload: Record<string, unknown> }

/** Queues one named event, completing its session_id, run_id, seq and ts. */
type Emit = (name: string, payload: Record<string, unknown>) => Effect.Effect<boolean>

export const sessionChatStreamRoute: Handler = (ctx) =>
  admitAgentRequest(ctx, (release) => Effect.gen(() => openSessionChatStream(ctx, release)))

function* openSessionChatStream(ctx: RouteContext, release: () => void) {
  const parsed = yield* parseSessionChat(ctx)
  if (parsed._tag === "rejected") return parsed.response
  const { sessionId, sessionKey, userMessage, systemPrompt } = parsed.request
  const ids = yield* Ids
  const messageId = `msg_${ids.hex(32)}`
  const runId = `run_${ids.hex(32)}`
  const queue = yield* Queue.unbounded<Frame | null>()
  let seq = 0
  const emit = (name: string, payload: Record<string, unknown>) =>
    Effect.suspend(() => {
      seq += 1
      const out: Record<string, unknown> = { ...payload }
      if (!("session_id" in out)) out["session_id"] = sessionId
      if (!("run_id" in out)) out["run_id"] = runId
      if (!("seq" in out)) out["seq"] = seq
      if (!("ts" in out)) out["ts"] = new PyFloat(ctx.now())
      return Queue.offer(queue, { name, payload: out })
    })
  const turn = Effect.gen(() => streamTurn(ctx, emit, messageId, sessionId, userMessage, systemPrompt)).pipe(
    Effect.catchAllDefect((defect) => emit("error", { message: String(defect) })),
    Effect.ensuring(emit("done", {}).pipe(Effect.zipRight(Queue.offer(queue, null))))
  )
  release()
  yield* Effect.forkDaemon(turn)
  const frames = keepaliveFrames(queue, (frame) => `event: ${frame.name}\ndata: ${pyDumps(frame.payload, false)}\n\n`)
  const headers: Array<readonly [string, string]> = [
    ["Content-Type", "text/event-stream"],
    ["Cache-Control", "no-cache"],
    ["X-Accel-Buffering", "no"],
    sessionIdHeader(sessionId)
  ]
  if (sessionKey !== undefined) headers.push(["X-Hermes-Session-Key", sessionKey])
  return { status: 200, headers, body: { _tag: "sse", frames } } satisfies EmuResponse
}

function* streamTurn(ctx: RouteContext, emit: Emit, messageId: string, sessionId: string, userMessage: unknown, systemPrompt: string | undefined) {
  yield* emit("run.started", { user_message: { role: "user", content: userMessage } })
  yield* emit("message.started", { message: { id: messageId, role: "assistant" } })
  const history = yield* sessionConversation(ctx.namespace, sessionId)
  // the agent plays on the stored transcript (copies: run.completed below looks the turn up in the
  // history as loaded, and the agent's repairs rewrite the dicts it is given)
  const result = yield* ctx.gateway.agentTurnInFlight(playAgentTurn({
    namespace: ctx.namespace,
    operation: "sessions.chat.stream",
    sessionId,
    userMessage,
    ...ephemeralSystemPromptOf(systemPrompt),
    history: history.map((m) => ({ ...m })),
    enabledTools: agentToolNames(ctx.config.enabledToolsets),
    persist: sessionTranscript(ctx.namespace, sessionId, ctx.now),
    callbacks: {
      onDelta: (delta) => emit("assistant.delta", { message_id: messageId, delta }),
      // the preview is of the reply's own text (tags taken out, blocks' text kept), not of what streamed
      onPause: (replyText) => {
        const preview = reasoningPreview(replyText)
        return preview === ""
          ? Effect.void
          : emit("tool.progress", { message_id: messageId, tool_name: "_thinking", delta: preview })
      },
      // the agent's tool_progress_callback: started with the preview and the parsed arguments, completed bare
      onToolStart: (call) =>
        previewRaises(call) ? Effect.void : emit("tool.started", { message_id: messageId, tool_name: call.name, preview: toolPreview(call), args: toolArgumentsOf(call.arguments) }),
      onToolComplete: (call) => emit("tool.completed", { message_id: messageId, tool_name: call.name, preview: null, args: null })
    }
  }))
  yield* emit("assistant.completed", {
    session_id: sessionId,
    message_id: messageId,
    content: result.finalResponse,
    completed: true,
    partial: false,
    interrupted: false
  })
  yield* emit("run.completed", {
    session_id: sessionId,
    message_id: messageId,
    completed: true,
    messages: assistantAndToolMessages(
      turnReportedMessages(ctx.features, history, userMessage, [{ role: "user", content: userMessage }, ...result.messages.slice(result.turnStart)])
    ),
    usage: result.usage
  })
}
