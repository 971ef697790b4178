/**
 * POST /v1/chat/completions: one model call of the real gateway, answered from the Script. The
 * Script player decides the reply (or Hermes' housekeeping default); this route journals it, keeps
 * a held reply back, and writes it as OpenAI's wire format — SSE or one JSON body.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { type Answer, type AnswerSource, contentText, modelErrorBody } from "@hermetic/script"
import { Effect, Either, Stream } from "effect"
import { type ChatRequest, decodeChatRequest, modelCallOf } from "./ChatRequest.js"
import type { FakeModelState } from "./FakeModelState.js"
import type { OpenEntry, ReplyRef } from "./Journal.js"
import { completionBody, streamPayloads } from "./openaiWire.js"
import { pathOf } from "./paths.js"
import { readJsonBody } from "./RequestBody.js"

/**
 * The body as a chat-completions request, with its messages as sent (every field, which the
 * decoded request drops), or undefined when it is not one.
 */
const readChatRequest = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<{ readonly req: ChatRequest; readonly sent: ReadonlyArray<unknown> } | undefined> =>
  Effect.map(readJsonBody(request), (body) => {
    if (!body.ok) return undefined
    const decoded = decodeChatRequest(body.value)
    if (Either.isLeft(decoded)) return undefined
    const sent = (body.value as { readonly messages: ReadonlyArray<unknown> }).messages
    return { req: decoded.right, sent }
  })

/** How the journal names where a reply came from. */
const replyRef = (source: AnswerSource): ReplyRef => {
  switch (source.kind) {
    case "housekeeping":
      return { source: "housekeeping-default", task: source.task }
    case "exhausted":
      return { source: "exhausted-default", why: source.why }
    case "sticky-error":
      return { source: "script-sticky-error", turn: source.turn, reply: source.index }
    case "reply":
      return { source: "script", turn: source.turn, reply: source.index, skippedReplies: source.skipped }
  }
}

const json = (body: unknown, status: number) => HttpServerResponse.unsafeJson(body, { status })

const replyResponse = (state: FakeModelState, req: ChatRequest, entry: OpenEntry, answer: Answer, seq: number) => {
  const reply = answer.reply
  if (reply.error !== undefined) {
    entry.status = reply.error.status
    entry.outcome = "sent"
    return json(modelErrorBody(reply.error.message, reply.error.type, reply.error.status), reply.error.status)
  }
  const env = { id: `chatcmpl-hermetic-${seq}`, created: Math.floor(Date.now() / 1000), model: req.model ?? state.settings.model }
  entry.status = 200
  if (req.stream !== true) {
    entry.outcome = "sent"
    return json(completionBody(reply, env, answer.toolCallIds), 200)
  }
  const delay = state.settings.chunkDelayMs
  const frames = Stream.fromIterable(streamPayloads(reply, env, answer.toolCallIds, req.stream_options?.include_usage === true)).pipe(
    Stream.map((payload) => `data: ${payload}\n\n`),
    delay > 0 ? Stream.tap(() => Effect.sleep(delay)) : (s) => s,
    Stream.onDone(() => Effect.sync(() => void (entry.outcome = "sent"))),
    Stream.ensuring(Effect.sync(() => void (entry.outcome === "sent" || (entry.outcome = "client-closed")))),
    Stream.encodeText
  )
  return HttpServerResponse.stream(frames, {
    contentType: "text/event-stream",
    headers: { "cache-control": "no-cache", connection: "keep-alive" }
  })
}

export const chatCompletions = (state: FakeModelState) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const path = pathOf(request)
    const read = yield* readChatRequest(request)
    if (read === undefined) {
      const entry = state.journal.open({ method: "POST", path, kind: "invalid", status: 400 })
      entry.outcome = "sent"
      return json(modelErrorBody("hermetic fake model: not a chat-completions request", undefined, 400), 400)
    }
    const body = read.req
    const seq = state.nextCallSeq()
    const lastUser = [...body.messages].reverse().find((m) => m.role === "user")
    const common = {
      method: "POST",
      path,
      model: body.model ?? "",
      messageCount: body.messages.length,
      lastRole: body.messages.at(-1)?.role ?? "",
      lastUser: lastUser === undefined ? "" : contentText(lastUser.content).slice(0, 120),
      stream: body.stream === true,
      hasTools: (body.tools?.length ?? 0) > 0
    }
    const answer = yield* state.player.answer({ ...modelCallOf(body), wire: read.sent })
    const source = answer.source
    const entry = state.journal.open(
      source.kind === "housekeeping"
        ? { ...common, kind: "housekeeping", housekeeping: source.task, reply: replyRef(source) }
        : { ...common, kind: "main", reply: replyRef(source) }
    )
    if (answer.hold !== undefined) {
      entry.hold = answer.hold
      entry.outcome = "held"
      // a client that goes away interrupts this fiber (platform-node does, on the socket's close)
      const released = yield* state.player.awaitHold(answer.hold).pipe(
        Effect.onInterrupt(() => Effect.sync(() => void (entry.outcome = "client-closed")))
      )
      if (!released) {
        // dropped by a reset: cut the connection, as if the model went away; Hermes sees a network error
        entry.outcome = "dropped-by-reset"
        NodeHttpServerRequest.toServerResponse(request).destroy()
        return yield* Effect.never
      }
    }
    return replyResponse(state, body, entry, answer, seq)
  })

