/**
 * The emulator on a socket (node:http). Bytes bodies carry Content-Length as aiohttp's do; SSE
 * bodies are chunked and written frame by frame; a dropped-response fault destroys the socket.
 * The body is read only when the app asks for it, and never past the size limit; a body the answer
 * left unread (404, 401, 413, over the limit) is discarded for at most aiohttp's 10 s lingering time.
 */
import { Effect, Exit, FiberId, Runtime, Stream } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { type BodyReader, type EmuRequestHead, type EmuResponse, type RequestBodyRead, sameHeaderName } from "./Exchange.js"
import { parserRejection, parserRejectionResponse } from "./ParserLimits.js"
import { BodyBuffer, IN_MEMORY_BYTES } from "./BodyBuffer.js"
import { MAX_REQUEST_BYTES } from "./RequestBody.js"

/**
 * aiohttp's 404 for a CONNECT (it routes no authority-form target), with the connection closed:
 * its head ends in Date, Server and Connection like every other answer's (`oracle fuzz` compares heads).
 */
const connectNotFound = (): string =>
  `HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 14\r\nDate: ${httpDate()}\r\nServer: ${SERVER}\r\nConnection: close\r\n\r\n404: Not Found`

/** Methods whose body a handler may read; any other request's body is never read. */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"])

const EMPTY = new Uint8Array(0)

/**
 * Each socket read is a fresh 64 KiB buffer that V8 frees only at its next collection, and its
 * allowance for such outside-the-heap memory (64 MB) lets that wait: ten clients streaming uploads
 * nobody reads grew RSS by 70 MiB of dead buffers. A young-generation collection every few MB
 * discarded (about a millisecond) keeps it down; `gc` is reached the way `--expose-gc` exposes it.
 */
const COLLECT_EVERY_BYTES = 4 << 20
/**
 * Reached on the first collection, not at load: changing a V8 flag changes the flag hash V8 stamps
 * on code caches, and the CLI launcher's cache, written as the process exits, would then be
 * refused by every next start (a process that never discarded uploads keeps the flags as they were).
 */
let collectYoung: (() => void) | undefined
const youngCollector = (): (() => void) => {
  try {
    // node:v8 is loaded here, not imported: loading it cost every start ~2 ms (and node:module's
    // createRequire, which this used before, loads Node's ESM loader: ~0.4 ms of every start)
    const { setFlagsFromString } = process.getBuiltinModule("node:v8")
    const { runInNewContext } = process.getBuiltinModule("node:vm")
    setFlagsFromString("--expose-gc")
    const gc = runInNewContext("gc") as (options: { readonly type: "minor" }) => void
    return () => gc({ type: "minor" })
  } catch {
    return () => undefined
  }
}
let discardedSinceCollect = 0
const collectDiscarded = (bytes: number) => {
  discardedSinceCollect += bytes
  if (discardedSinceCollect < COLLECT_EVERY_BYTES) return
  discardedSinceCollect = 0
  collectYoung ??= youngCollector()
  collectYoung()
}

/** Takes at most `limit` bytes (BodyBuffer); one byte more and it stops reading (the rest is discarded). */
const readBounded = (req: http.IncomingMessage, limit: number): Promise<RequestBodyRead> =>
  new Promise((resolve, reject) => {
    const buffer = new BodyBuffer()
    const done = (read: RequestBodyRead) => {
      req.off("data", onData)
      req.off("end", onEnd)
      req.off("error", onError)
      resolve(read)
    }
    const onData = (c: Buffer) => {
      if (buffer.size + c.byteLength <= limit) {
        buffer.add(c)
        // what went to the file is a dead socket buffer now
        if (buffer.size > IN_MEMORY_BYTES) collectDiscarded(c.byteLength)
      } else {
        buffer.discard()
        req.pause()
        done({ bytes: EMPTY, exceeded: true })
      }
    }
    const onEnd = () => done({ bytes: buffer.bytes(), exceeded: false })
    const onError = (e: unknown) => {
      buffer.discard()
      reject(e)
    }
    req.on("data", onData)
    req.on("end", onEnd)
    req.on("error", onError)
  })

/**
 * The body read when a handler first asks for it. A read that fails is a client gone mid-upload
 * (node:http's "aborted"): the request is interrupted before its handler changes anything, and
 * nobody is left to answer. Not a defect of ours, so no crash line and no 500. (Hermes' handlers
 * catch the failed `request.json()` as a bad body; their 400 reaches nobody either.)
 */
const readOnDemand = (req: http.IncomingMessage): BodyReader => {
  let reading: Promise<RequestBodyRead> | undefined
  return Effect.tryPromise(() => (reading ??= readBounded(req, MAX_REQUEST_BYTES))).pipe(Effect.catchAll(() => Effect.interrupt))
}

const NO_BODY: BodyReader = Effect.succeed({ bytes: EMPTY, exceeded: false })

/** A body node:http has parsed to its end, taken from the request's buffer at once; undefined if it has not. */
const takeComplete = (req: http.IncomingMessage): BodyReader | undefined => {
  if (!req.complete || req.readableFlowing === true) return undefined
  if (req.readableLength > MAX_REQUEST_BYTES) return Effect.succeed({ bytes: EMPTY, exceeded: true })
  const chunks: Array<Buffer> = []
  for (let chunk: Buffer | null = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) chunks.push(chunk)
  const bytes = chunks.length === 1 ? chunks[0] as Buffer : Buffer.concat(chunks)
  return Effect.succeed({ bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), exceeded: false })
}

/** aiohttp's lingering_time: how long the rest of a body the answer left unread is read and discarded. */
const LINGER_MS = 10_000
/**
 * How often the bytes discarded on a lingering connection are counted (collectDiscarded). At 20 ms
 * a socket streaming at loopback speed threw away megabytes between two counts, each collection
 * came that much past its 4 MB: the reliability bench's ten 400 MiB uploads grew RSS by 37.0–45.8
 * MiB (7 runs) against 25.5–35.1 at 5 ms, alternated on the same loaded machine. The timer runs
 * only while a connection lingers (at most 10 s).
 */
const COUNT_EVERY_MS = 5
/** After the FIN, how long the client gets to read the answer before the socket goes. */
const CLOSE_GRACE_MS = 2_000

/**
 * After an answer given before the body was read in full, as aiohttp does (measured on the real
 * 0.19.0 gateway, evidence/live-comparisons/upload-linger/): the rest is read and thrown away, nothing buffered, for
 * up to 10 s; a body that ends by then keeps the connection, one still coming then ends it (a FIN,
 * the socket closed a little later, as closing outright while the client still sends resets it).
 */
const discardRest = (req: http.IncomingMessage) => {
  const socket = req.socket
  // a request no one read is already dumped by node:http (its bytes reach no listener), so what
  // is thrown away is counted on the socket
  let counted = socket.bytesRead
  const count = setInterval(() => {
    collectDiscarded(socket.bytesRead - counted)
    counted = socket.bytesRead
  }, COUNT_EVERY_MS)
  const linger = setTimeout(() => {
    if (req.complete) return
    req.pause()
    socket.end()
    setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref()
  }, LINGER_MS)
  count.unref()
  linger.unref()
  // both listeners go once either fires: a kept-alive socket would otherwise gather one per request
  const stop = () => {
    clearTimeout(linger)
    clearInterval(count)
    req.off("end", stop)
    socket.off("close", stop)
  }
  req.once("end", stop)
  socket.once("close", stop)
  req.removeAllListeners("data")
  req.on("data", () => undefined)
  req.resume()
}

/**
 * With Connection: close node:http ends the socket once the answer is out, while the client is
 * still sending; aiohttp lingers first (discardRest) and closes after the body, or at the linger's
 * end (measured live: evidence/live-comparisons/upload-linger/upload-linger-0.19.0.md). Its close waits for the body.
 */
const closeAfterBody = (req: http.IncomingMessage) => {
  const socket = req.socket
  const destroySoon = socket.destroySoon.bind(socket)
  // through a const: a function literal assigned to a property is allocated in V8's old space
  const afterBody = () => {
    if (req.complete) destroySoon()
    else req.once("end", destroySoon)
  }
  socket.destroySoon = afterBody
}

/**
 * The request head as the app reads it. What few requests need is made only when asked: the
 * query's URLSearchParams, and the `aborted` promise (only streams wait on it), whose listener on
 * every response cost a measurable part of a GET. (A class: an object literal with getters is
 * built through V8's slow path, which cost more than what it saved.)
 */
class NodeRequestHead implements EmuRequestHead {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string | undefined>>
  #query: URLSearchParams | undefined
  #aborted: Promise<void> | undefined
  readonly #search: string
  readonly #res: http.ServerResponse

  constructor(req: http.IncomingMessage, res: http.ServerResponse) {
    // a fragment is no part of the request (aiohttp's URL drops it)
    const url = req.url ?? "/"
    const hash = url.indexOf("#")
    const raw = hash < 0 ? url : url.slice(0, hash)
    const q = raw.indexOf("?")
    this.method = (req.method ?? "GET").toUpperCase()
    this.path = q < 0 ? raw : raw.slice(0, q)
    this.#search = q < 0 ? "" : raw.slice(q + 1)
    this.headers = firstHeaders(req)
    this.#res = res
  }

  get query(): URLSearchParams {
    return (this.#query ??= new URLSearchParams(this.#search))
  }

  get aborted(): Promise<void> {
    const res = this.#res
    return (this.#aborted ??= res.closed ? Promise.resolve() : new Promise<void>((done) => res.once("close", () => done())))
  }
}

/**
 * A repeated header is its first line's value, as aiohttp's `request.headers.get` reads it
 * (node:http's own `req.headers` joins custom ones with ", ": two session keys would be one).
 */
const firstHeaders = (req: http.IncomingMessage): Record<string, string | undefined> => {
  const raw = req.rawHeaders
  const headers: Record<string, string | undefined> = {}
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase()
    if (!Object.hasOwn(headers, name)) headers[name] = raw[i + 1] as string
  }
  return headers
}

/**
 * Before an answer goes out while the body is still arriving (an early 401, 404 or 413): the rest
 * is lingered over and discarded as aiohttp does. node:http's own finish handling (which ends a
 * Connection: close socket) was registered before the request reached us, so it runs first.
 */
const lingerIfUnread = (req: http.IncomingMessage, res: http.ServerResponse) => {
  if (req.complete) return
  res.once("prefinish", () => {
    if (!req.complete && !res.shouldKeepAlive) closeAfterBody(req)
  })
  res.once("finish", () => {
    if (!req.complete) discardRest(req)
  })
}

// Python's http.HTTPStatus phrases (what aiohttp sends) where Node's differ
const PYTHON_REASONS: Readonly<Record<number, string>> = {
  413: "Request Entity Too Large",
  414: "Request-URI Too Long",
  416: "Requested Range Not Satisfiable"
}
const reasonPhrase = (status: number): string => PYTHON_REASONS[status] ?? http.STATUS_CODES[status] ?? "Unknown"

/**
 * What aiohttp sends as Server on the 0.19.0 gateway (its venv: aiohttp 3.14.1 on CPython 3.11),
 * seen over a raw socket (`oracle wire`).
 */
const SERVER = "Python/3.11 aiohttp/3.14.1"

let dateSecond = -1
let dateText = ""
/** The Date header, made once a second as Node does for its own. */
const httpDate = (): string => {
  const now = Date.now()
  const second = Math.floor(now / 1000)
  if (second !== dateSecond) {
    dateSecond = second
    dateText = new Date(now).toUTCString()
  }
  return dateText
}

const isHttp10 = (req: http.IncomingMessage) => req.httpVersionMajor === 1 && req.httpVersionMinor === 0

/**
 * aiohttp's Connection header when the handler set none (measured live:
 * evidence/live-comparisons/connection-ends/): only what differs from the version's default, so
 * `keep-alive` on a kept HTTP/1.0 connection, `close` on a closed HTTP/1.1 one, none otherwise: also
 * none for HTTP/0.9 and 2.0, which both parsers let through. (Node sends `keep-alive` on every kept one.)
 */
const connectionHeader = (req: http.IncomingMessage, res: http.ServerResponse, out: EmuResponse): string | undefined => {
  const own = out.headers.find(([k]) => sameHeaderName(k, "connection"))
  if (own !== undefined) return own[1]
  if (res.shouldKeepAlive) return isHttp10(req) ? "keep-alive" : undefined
  return req.httpVersion === "1.1" ? "close" : undefined
}

/**
 * The head in aiohttp's order: the handler's headers, the framing header, then Date, Server and
 * Connection last (Node would put its own Date, Connection and Transfer-Encoding after the
 * handler's, in another order, and send no Server). Without a Connection header to send, Node's
 * own is removed: it then sends none and still closes the connection if the request asked to.
 */
const headTail = (req: http.IncomingMessage, res: http.ServerResponse, out: EmuResponse): Array<string> => {
  const connection = connectionHeader(req, res, out)
  if (connection === undefined) res.removeHeader("Connection")
  return ["Date", httpDate(), "Server", SERVER, ...(connection !== undefined ? ["Connection", connection] : [])]
}

/** node:http's head before it is sent (`_header`): its status line is always HTTP/1.1. */
interface PendingHead {
  _header: string | null
}

/** aiohttp answers in the request's version: an HTTP/1.0, 0.9 or 2.0 request gets that version's status line. */
const statusLineInRequestVersion = (req: http.IncomingMessage, res: http.ServerResponse) => {
  if (req.httpVersion === "1.1") return
  const pending = res as unknown as PendingHead
  if (pending._header?.startsWith("HTTP/1.1 ") === true) pending._header = `HTTP/${req.httpVersion} ${pending._header.slice(9)}`
}

/** The handler's headers as node:http's flat list, without Connection (headTail puts it last). */
const flatHeaders = (out: EmuResponse): Array<string> => {
  const flat: Array<string> = []
  for (const [k, v] of out.headers) if (!sameHeaderName(k, "connection")) flat.push(k, v)
  return flat
}

const writeResponse = <R>(req: http.IncomingMessage, res: http.ServerResponse, out: EmuResponse, runtime: Runtime.Runtime<R>): Promise<void> | void => {
  switch (out.body._tag) {
    case "drop":
      res.socket?.destroy()
      return
    case "bytes": {
      const bytes = out.body.bytes
      const head = flatHeaders(out)
      head.push("Content-Length", String(bytes.byteLength), ...headTail(req, res, out))
      lingerIfUnread(req, res)
      res.writeHead(out.status, reasonPhrase(out.status), head)
      statusLineInRequestVersion(req, res)
      // as a latin1 string (byte for byte) Node sends head and body in one write instead of a writev
      res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"), "latin1")
      return
    }
    case "sse":
      return writeStream(req, res, out, out.body, runtime)
  }
}

/**
 * An event stream as the frames come: each is written as the stream makes it, and the stream waits
 * only when node:http asks for a drain (aiohttp's write waits only then too). No `Effect.async` per
 * frame, no `Effect.provide`, no fiber made to interrupt: each of those kept the stream's whole
 * graph in V8's old space until a full collection (docs/performance.md, "What a request leaves
 * behind"). A dropped connection (`disconnectAfter`) still delivers its frames: the socket is
 * destroyed once the last of them is flushed.
 */
const writeStream = <R>(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  out: EmuResponse,
  body: Extract<EmuResponse["body"], { readonly _tag: "sse" }>,
  runtime: Runtime.Runtime<R>
): Promise<void> => {
  const head = flatHeaders(out)
  head.push("Transfer-Encoding", "chunked", ...headTail(req, res, out))
  lingerIfUnread(req, res)
  res.writeHead(out.status, reasonPhrase(out.status), head)
  statusLineInRequestVersion(req, res)
  res.flushHeaders()
  const limit = body.disconnectAfter
  const frames = limit === undefined ? body.frames : body.frames.pipe(Stream.take(limit))
  const writes = frameWrites(res)
  const fiber = Runtime.runFork(runtime)(Stream.runForEach(frames, writes.send))
  // the client gone (its socket closed, even before this answer began): the stream is interrupted,
  // and its finalizers stop what feeds it (EmuBody in Exchange.ts)
  const clientGone = () => fiber.unsafeInterruptAsFork(FiberId.none)
  res.on("close", clientGone)
  if (res.closed) clientGone()
  return new Promise((resolve) =>
    fiber.addObserver((exit) => {
      res.off("close", clientGone)
      writes.afterFlush(() => {
        if (limit !== undefined) res.socket?.destroy()
        else if (Exit.isSuccess(exit) && !res.destroyed) res.end()
        resolve()
      })
    })
  )
}

/**
 * The frames written to one response: how many node:http has not flushed yet, and a wait for a
 * drain. Closures made through consts, not assigned to properties (which V8 puts in old space).
 */
const frameWrites = (res: http.ServerResponse) => {
  let unflushed = 0
  let whenFlushed: (() => void) | undefined
  const flushed = () => {
    unflushed--
    if (unflushed === 0 && whenFlushed !== undefined) {
      const then = whenFlushed
      whenFlushed = undefined
      then()
    }
  }
  const drained = Effect.async<void>((resume) => {
    const done = () => {
      res.off("drain", done)
      res.off("close", done)
      resume(Effect.void)
    }
    res.on("drain", done)
    res.on("close", done)
  })
  const send = (frame: string): Effect.Effect<void> => {
    if (res.destroyed) return Effect.void
    unflushed++
    return res.write(frame, flushed) ? Effect.void : drained
  }
  /** `then` once every frame written so far is flushed (or failed with the socket). */
  const afterFlush = (then: () => void) => {
    if (unflushed === 0) then()
    else whenFlushed = then
  }
  return { send, afterFlush }
}

/** node:http's own answers to a request its parser refuses (what it sends with no clientError listener). */
const PARSER_ERROR_ANSWERS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n",
  ERR_HTTP_REQUEST_TIMEOUT: "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n"
}
const BAD_REQUEST = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n"

/** The answer node:http has on a socket (internal `_httpMessage`), if one is under way. */
interface SocketWithAnswer {
  readonly _httpMessage?: { readonly _headerSent?: boolean } | null
}

/**
 * A request the parser refuses gets node:http's own 400 (or 431, 413, 408), as without a listener,
 * except bytes that follow a request that closes the connection (Connection: close, HTTP/1.0):
 * aiohttp reads no request after such a one and answers nothing; the connection still closes
 * once that request's answer is out and its body read (measured live: a GET sent with the body's
 * end was never answered, evidence/live-comparisons/connection-ends/).
 */
const answerParserError = (err: NodeJS.ErrnoException, socket: import("node:stream").Duplex) => {
  if (err.code === "HPE_CLOSED_CONNECTION") return
  const answer = (socket as unknown as SocketWithAnswer)._httpMessage
  if (socket.writable && (answer === undefined || answer === null || answer._headerSent !== true)) socket.write(PARSER_ERROR_ANSWERS[err.code ?? ""] ?? BAD_REQUEST)
  socket.destroy(err)
}

export interface NodeServer {
  readonly server: http.Server
  readonly port: number
  readonly host: string
  readonly close: () => Promise<void>
}

/** The app as the socket calls it: the request head, and the body read on demand. */
export type RespondStreaming = (head: EmuRequestHead, body: BodyReader) => Promise<EmuResponse>

export const listen = <R>(
  respond: RespondStreaming,
  runtime: Runtime.Runtime<R>,
  host: string,
  port: number
): Promise<NodeServer> =>
  new Promise((resolve, reject) => {
    const answer = (req: http.IncomingMessage, res: http.ServerResponse, body: BodyReader) =>
      respond(new NodeRequestHead(req, res), body)
        .then((out) => writeResponse(req, res, out, runtime))
        .catch(() => {
          // interrupted because the client went away (readOnDemand): nobody to answer
          if (req.destroyed || res.destroyed) res.destroy()
          else if (!res.headersSent) {
            lingerIfUnread(req, res)
            res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" })
            res.end("500 Internal Server Error\n\nServer got itself in trouble")
          } else res.destroy()
        })
    // headers as large as aiohttp lets through (128 fields of 8190 bytes); ParserLimits refuses the rest as it does
    const server = http.createServer({ maxHeaderSize: 128 * 8192 }, (req, res) => {
      const refused = parserRejection(req.rawHeaders)
      if (refused !== undefined) {
        req.socket.end(parserRejectionResponse(refused, new Date().toUTCString()))
        return
      }
      if (!BODY_METHODS.has((req.method ?? "").toUpperCase())) {
        answer(req, res, NO_BODY)
        return
      }
      // A small body usually arrives in the same read as its head. node:http reads the socket
      // itself and calls us as soon as the head is parsed, then runs the next tick's callbacks,
      // and only then parses the body: on the next tick no body was ever complete (counted:
      // 0 of 1,556 POSTs). After setImmediate, in the same turn of the event loop, such a body
      // is complete and is handed to the app as it is: no promise and no asynchronous Effect,
      // which keeps what it waits for alive until a full collection (docs/performance.md). Any
      // other body is read on demand.
      setImmediate(() => answer(req, res, takeComplete(req) ?? readOnDemand(req)))
    })
    server.on("clientError", answerParserError)
    server.on("connect", (_req: http.IncomingMessage, socket: import("node:stream").Duplex) => socket.end(connectNotFound()))
    // 0: no idle timeout, and Node then sends no Keep-Alive header (aiohttp sends none)
    server.keepAliveTimeout = 0
    server.once("error", reject)
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo
      resolve({
        server,
        port: address.port,
        host,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      })
    })
  })
