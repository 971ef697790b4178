/**
 * The fake model: a loopback OpenAI-compatible server that plays the Script to the real gateway.
 * The only substitution hermetic makes in the real stack.
 *
 *   POST /v1/chat/completions          streaming (SSE) and non-streaming
 *   GET  /v1/models                    one model
 *   POST /__admin/script               append a Script's turns
 *   POST /__admin/holds/{name}/release release a held reply
 *   POST /__admin/reset                clear queue, holds and journal; drop held calls
 *   GET  /__admin/journal              every request received
 *   GET  /__admin/state                queue position and waiting holds
 * Everything else (Hermes' local-server probes: /api/tags, /props, /version, ...) is 404, which
 * keeps Hermes in plain OpenAI-compatible mode.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Either } from "effect"
import {
  type AnswerSource,
  contentText,
  decodeScriptSync,
  EXHAUSTED_REPLY_TEXT,
  makeScriptPlayer,
  type Reply,
  type Script
} from "@hermetic/script"
import { decodeChatRequest, type ChatRequest, modelCallOf } from "./ChatRequest.js"
import { Journal, type JournalEntry, type OpenEntry, type ReplyRef } from "./Journal.js"
import { completionBody, errorBody, streamPayloads } from "./openaiWire.js"

export type FakeModelOptions = {
  /** 0 (default) picks a free port. */
  readonly port?: number
  /** The model id listed by /v1/models and echoed in replies. */
  readonly model?: string
  /** Pause between SSE chunks, so streaming is observable as streaming. */
  readonly chunkDelayMs?: number
}

export type FakeModel = {
  /** http://127.0.0.1:PORT — admin routes live here. */
  readonly url: string
  /** http://127.0.0.1:PORT/v1 — what Hermes' config.yaml points at. */
  readonly baseUrl: string
  readonly port: number
  readonly model: string
  appendScript(script: Script): number
  release(hold: string): number
  reset(): void
  journal(): ReadonlyArray<JournalEntry>
  close(): Promise<void>
}

/** The text a call gets when the Script has nothing for it. Visible in Hermes' output on purpose. */
export { EXHAUSTED_REPLY_TEXT }

const MAX_BODY = 20_000_000

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const parts: Array<Buffer> = []
    let size = 0
    req.on("data", (b: Buffer) => {
      size += b.length
      if (size > MAX_BODY) req.destroy(new Error("body too large"))
      else parts.push(b)
    })
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")))
    req.on("error", reject)
  })

const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

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

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

export const startFakeModel = async (options: FakeModelOptions = {}): Promise<FakeModel> => {
  const model = options.model ?? "hermetic-fake-model"
  const chunkDelay = options.chunkDelayMs ?? 0
  const player = makeScriptPlayer()
  const journal = new Journal()
  let callSeq = 0
  // Held calls are tracked so reset can drop them (their socket is destroyed: Hermes sees a
  // connection error, exactly as if the model went away).
  const heldResponses = new Set<ServerResponse>()

  const sendReply = async (
    req: ChatRequest,
    res: ServerResponse,
    entry: OpenEntry,
    reply: Reply,
    seq: number
  ): Promise<void> => {
    if (reply.error) {
      entry.status = reply.error.status
      sendJson(res, reply.error.status, errorBody(reply.error.message, reply.error.type, reply.error.status))
      entry.outcome = "sent"
      return
    }
    const env = { id: `chatcmpl-hermetic-${seq}`, created: Math.floor(Date.now() / 1000), model: req.model ?? model }
    entry.status = 200
    if (req.stream === true) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" })
      const payloads = streamPayloads(reply, env, seq, req.stream_options?.include_usage === true)
      for (const p of payloads) {
        if (res.destroyed) {
          entry.outcome = "client-closed"
          return
        }
        res.write(`data: ${p}\n\n`)
        if (chunkDelay > 0) await sleep(chunkDelay)
      }
      res.end()
    } else {
      sendJson(res, 200, completionBody(reply, env, seq))
    }
    entry.outcome = "sent"
  }

  const handleChat = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const raw = await readBody(req)
    let parsed: unknown
    try {
      parsed = JSON.parse(raw)
    } catch {
      parsed = undefined
    }
    const decoded = decodeChatRequest(parsed)
    if (Either.isLeft(decoded)) {
      const e = journal.open({ method: "POST", path, kind: "invalid", status: 400 })
      sendJson(res, 400, errorBody("hermetic fake model: not a chat-completions request", undefined, 400))
      e.outcome = "sent"
      return
    }
    const body = decoded.right
    const seq = callSeq++
    const lastUserMsg = [...body.messages].reverse().find((m) => m.role === "user")
    const common = {
      method: "POST",
      path,
      model: body.model ?? "",
      messageCount: body.messages.length,
      lastRole: body.messages.at(-1)?.role ?? "",
      lastUser: lastUserMsg ? contentText(lastUserMsg.content).slice(0, 120) : "",
      stream: body.stream === true,
      hasTools: (body.tools?.length ?? 0) > 0
    }
    const answer = Effect.runSync(player.answer(modelCallOf(body)))
    const source = answer.source
    const entry = journal.open(
      source.kind === "housekeeping" ? { ...common, kind: "housekeeping", housekeeping: source.task, reply: replyRef(source) } : { ...common, kind: "main", reply: replyRef(source) }
    )
    const reply = answer.reply
    if (answer.hold !== undefined) {
      entry.hold = answer.hold
      entry.outcome = "held"
      heldResponses.add(res)
      const waiter = Effect.runPromise(player.awaitHold(answer.hold))
      const closed = new Promise<"closed">((r) => res.once("close", () => r("closed")))
      const result = await Promise.race([waiter, closed])
      heldResponses.delete(res)
      if (result === "closed") {
        entry.outcome = "client-closed"
        return
      }
      if (result === false) {
        entry.outcome = "dropped-by-reset"
        res.destroy()
        return
      }
    }
    await sendReply(body, res, entry, reply, seq)
  }

  const handleAdmin = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (req.method === "POST" && path === "/__admin/script") {
      let script: Script
      try {
        script = decodeScriptSync(JSON.parse(await readBody(req)))
      } catch (e) {
        sendJson(res, 400, { error: `invalid Script: ${(e as Error).message}` })
        return
      }
      const pending = Effect.runSync(player.append(script))
      sendJson(res, 200, { appended: script.turns.length, pendingTurns: pending })
      return
    }
    const release = /^\/__admin\/holds\/([^/]+)\/release$/.exec(path)
    if (req.method === "POST" && release?.[1]) {
      const name = decodeURIComponent(release[1])
      sendJson(res, 200, { hold: name, releasedCalls: Effect.runSync(player.release(name)) })
      return
    }
    if (req.method === "POST" && path === "/__admin/reset") {
      api.reset()
      sendJson(res, 200, { reset: true })
      return
    }
    if (req.method === "GET" && path === "/__admin/journal") {
      sendJson(res, 200, { entries: journal.list() })
      return
    }
    if (req.method === "GET" && path === "/__admin/state") {
      sendJson(res, 200, Effect.runSync(player.view))
      return
    }
    sendJson(res, 404, { error: `no admin route ${req.method} ${path}` })
  }

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/"
    const run = async () => {
      if (path.startsWith("/__admin/")) return handleAdmin(req, res, path)
      if (req.method === "POST" && (path === "/v1/chat/completions" || path === "/chat/completions")) {
        return handleChat(req, res, path)
      }
      if (req.method === "GET" && path === "/v1/models") {
        const e = journal.open({ method: "GET", path, kind: "models", status: 200, reply: { source: "static" } })
        sendJson(res, 200, { object: "list", data: [{ id: model, object: "model", created: 0, owned_by: "hermetic" }] })
        e.outcome = "sent"
        return
      }
      const e = journal.open({ method: req.method ?? "GET", path, kind: "probe", status: 404, reply: { source: "static" } })
      sendJson(res, 404, { error: { message: `hermetic fake model has no ${path}`, type: "not_found", param: null, code: null } })
      e.outcome = "sent"
    }
    run().catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(err), type: "server_error", param: null, code: null } })
      else res.destroy()
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const url = `http://127.0.0.1:${port}`

  const api: FakeModel = {
    url,
    baseUrl: `${url}/v1`,
    port,
    model,
    appendScript: (script) => Effect.runSync(player.append(script)),
    release: (hold) => Effect.runSync(player.release(hold)),
    reset: () => {
      Effect.runSync(player.reset)
      for (const r of heldResponses) r.destroy()
      heldResponses.clear()
      journal.clear()
    },
    journal: () => journal.list(),
    close: () =>
      new Promise<void>((resolve) => {
        Effect.runSync(player.reset)
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
  return api
}
