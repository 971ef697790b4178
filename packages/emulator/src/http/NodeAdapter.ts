/**
 * The emulator on a socket (node:http). Bytes bodies carry Content-Length as aiohttp's do; SSE
 * bodies are chunked and written frame by frame; a dropped-response fault destroys the socket.
 * The body is read only when the app asks for it, and never past the size limit; a body the answer
 * left unread (404, 401, 413, over the limit) is discarded for at most aiohttp's 10 s lingering time.
 */
import { Effect, Exit, Fiber, type Runtime, Stream } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import type { BodyReader, EmuRequestHead, EmuResponse, RequestBodyRead } from "./Exchange.js"
import { parserRejection, parserRejectionResponse } from "./ParserLimits.js"
import { MAX_REQUEST_BYTES } from "./RequestBody.js"

/** aiohttp's 404 for a CONNECT (it routes no authority-form target), with the connection closed. */
const CONNECT_NOT_FOUND = "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 14\r\n\r\n404: Not Found"

/** Methods whose body a handler may read; any other request's body is never read. */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"])

const EMPTY = new Uint8Array(0)

/** Buffers at most `limit` bytes; one byte more and it stops reading (the socket is then closed). */
const readBounded = (req: http.IncomingMessage, limit: number): Promise<RequestBodyRead> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const done = (read: RequestBodyRead) => {
      req.off("data", onData)
      req.off("end", onEnd)
      req.off("error", reject)
      resolve(read)
    }
    const onData = (c: Buffer) => {
      size += c.byteLength
      if (size <= limit) chunks.push(c)
      else {
        chunks.length = 0
        req.pause()
        done({ bytes: EMPTY, exceeded: true })
      }
    }
    const onEnd = () => done({ bytes: new Uint8Array(Buffer.concat(chunks)), exceeded: false })
    req.on("data", onData)
    req.on("end", onEnd)
    req.on("error", reject)
  })

/** aiohttp's lingering_time: how long the rest of a body the answer left unread is read and discarded. */
const LINGER_MS = 10_000
/** After the FIN, how long the client gets to read the answer before the socket goes. */
const CLOSE_GRACE_MS = 2_000

/**
 * After an answer given before the body was read in full, as aiohttp does (measured on the real
 * 0.19.0 gateway, evidence/hardening2/): the rest is read and thrown away, nothing buffered, for
 * up to 10 s; a body that ends by then keeps the connection, one still coming then ends it (a FIN,
 * the socket closed a little later, as closing outright while the client still sends resets it).
 */
const discardRest = (req: http.IncomingMessage) => {
  req.removeAllListeners("data")
  req.on("data", () => undefined)
  const linger = setTimeout(() => {
    if (req.complete) return
    req.pause()
    req.socket.end()
    setTimeout(() => req.socket.destroy(), CLOSE_GRACE_MS).unref()
  }, LINGER_MS)
  linger.unref()
  req.once("end", () => clearTimeout(linger))
  req.socket.once("close", () => clearTimeout(linger))
  req.resume()
}

const toRequestHead = (req: http.IncomingMessage, aborted: Promise<void>): EmuRequestHead => {
  // a fragment is no part of the request (aiohttp's URL drops it)
  const raw = (req.url ?? "/").split("#")[0] as string
  const q = raw.indexOf("?")
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v
  }
  return {
    method: (req.method ?? "GET").toUpperCase(),
    path: q < 0 ? raw : raw.slice(0, q),
    query: new URLSearchParams(q < 0 ? "" : raw.slice(q + 1)),
    headers,
    aborted
  }
}

// Python's http.HTTPStatus phrases (what aiohttp sends) where Node's differ
const PYTHON_REASONS: Readonly<Record<number, string>> = {
  413: "Request Entity Too Large",
  414: "Request-URI Too Long",
  416: "Requested Range Not Satisfiable"
}
const reasonPhrase = (status: number): string => PYTHON_REASONS[status] ?? http.STATUS_CODES[status] ?? "Unknown"

const writeResponse = async <R>(res: http.ServerResponse, out: EmuResponse, runtime: Runtime.Runtime<R>) => {
  const headers = out.headers.flatMap(([k, v]) => [k, v])
  switch (out.body._tag) {
    case "drop":
      res.socket?.destroy()
      return
    case "bytes": {
      const bytes = out.body.bytes
      res.writeHead(out.status, reasonPhrase(out.status), [...headers, "Content-Length", String(bytes.byteLength)])
      // as a latin1 string (byte for byte) Node sends head and body in one write instead of a writev
      res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"), "latin1")
      return
    }
    case "sse": {
      res.writeHead(out.status, reasonPhrase(out.status), headers)
      res.flushHeaders()
      const limit = out.body.disconnectAfter
      const frames = limit === undefined ? out.body.frames : out.body.frames.pipe(Stream.take(limit))
      const write = Stream.runForEach(frames, (frame) =>
        Effect.async<void>((resume) => {
          if (res.destroyed) return resume(Effect.void)
          res.write(frame, () => resume(Effect.void))
        })
      )
      const fiber = Effect.runFork(Effect.provide(write, runtime.context))
      res.on("close", () => Effect.runFork(Fiber.interrupt(fiber)))
      const exit = await Effect.runPromise(Fiber.await(fiber))
      if (limit !== undefined) res.socket?.destroy()
      else if (Exit.isSuccess(exit) && !res.destroyed) res.end()
      return
    }
  }
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
    // headers as large as aiohttp lets through (128 fields of 8190 bytes); ParserLimits refuses the rest as it does
    const server = http.createServer({ maxHeaderSize: 128 * 8192 }, (req, res) => {
      const refused = parserRejection(req.rawHeaders)
      if (refused !== undefined) {
        req.socket.end(parserRejectionResponse(refused, new Date().toUTCString()))
        return
      }
      const aborted = new Promise<void>((done) => res.on("close", () => done()))
      let reading: Promise<RequestBodyRead> | undefined
      const body: BodyReader = BODY_METHODS.has((req.method ?? "").toUpperCase())
        ? Effect.promise(() => (reading ??= readBounded(req, MAX_REQUEST_BYTES)))
        : Effect.succeed({ bytes: new Uint8Array(0), exceeded: false })
      res.on("finish", () => {
        if (!req.complete) discardRest(req)
      })
      respond(toRequestHead(req, aborted), body)
        .then((out) => writeResponse(res, out, runtime))
        .catch(() => {
          if (!res.headersSent) {
            res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" })
            res.end("500 Internal Server Error\n\nServer got itself in trouble")
          } else res.destroy()
        })
    })
    server.on("connect", (_req: http.IncomingMessage, socket: import("node:stream").Duplex) => socket.end(CONNECT_NOT_FOUND))
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
