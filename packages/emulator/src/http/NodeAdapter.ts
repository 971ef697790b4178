/**
 * The emulator on a socket (node:http). Bytes bodies carry Content-Length as aiohttp's do; SSE
 * bodies are chunked and written frame by frame; a dropped-response fault destroys the socket.
 */
import { Effect, Exit, Fiber, type Runtime, Stream } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import type { EmuRequest, EmuResponse } from "./Exchange.js"

const readBody = (req: http.IncomingMessage): Promise<Uint8Array> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))))
    req.on("error", reject)
  })

const toEmuRequest = (req: http.IncomingMessage, body: Uint8Array, aborted: Promise<void>): EmuRequest => {
  const raw = req.url ?? "/"
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
    body,
    aborted
  }
}

const writeResponse = <R>(res: http.ServerResponse, out: EmuResponse, runtime: Runtime.Runtime<R>) => {
  const headers = out.headers.flatMap(([k, v]) => [k, v])
  switch (out.body._tag) {
    case "drop":
      res.socket?.destroy()
      return
    case "bytes": {
      const bytes = out.body.bytes
      res.writeHead(out.status, [...headers, "Content-Length", String(bytes.byteLength)])
      // as a latin1 string (byte for byte) Node sends head and body in one write instead of a writev
      res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"), "latin1")
      return
    }
    case "sse": {
      res.writeHead(out.status, headers)
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
      return Effect.runPromise(Fiber.await(fiber)).then((exit) => {
        if (limit !== undefined) res.socket?.destroy()
        else if (Exit.isSuccess(exit) && !res.destroyed) res.end()
      })
    }
  }
}

export interface NodeServer {
  readonly server: http.Server
  readonly port: number
  readonly host: string
  readonly close: () => Promise<void>
}

export const listen = <R>(
  respond: (req: EmuRequest) => EmuResponse | Promise<EmuResponse>,
  runtime: Runtime.Runtime<R>,
  host: string,
  port: number
): Promise<NodeServer> =>
  new Promise((resolve, reject) => {
    const server = http.createServer((req, res) => {
      const aborted = new Promise<void>((done) => res.on("close", () => done()))
      const crashed = () => {
        if (!res.headersSent) {
          res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" })
          res.end("500 Internal Server Error\n\nServer got itself in trouble")
        } else res.destroy()
      }
      readBody(req)
        .then((body) => {
          const out = respond(toEmuRequest(req, body, aborted))
          // most answers are ready at once: written in this tick, without another promise hop
          return out instanceof Promise ? out.then((o) => writeResponse(res, o, runtime)) : writeResponse(res, out, runtime)
        })
        .catch(crashed)
    })
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
