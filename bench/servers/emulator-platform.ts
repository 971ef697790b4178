/**
 * Bench child: the same emulator served through @effect/platform-node (an HttpApp on
 * NodeHttpServer) instead of its lean node:http adapter, in its cheapest setup (no request logger,
 * no tracing spans): the measurement behind the choice of the emulator's socket adapter (issue 11.2,
 * see the emulator README). The app hands each request to the emulator exactly as the adapter
 * does (`respond`), and writes bytes answers with their status and headers; event streams are
 * outside this measurement. File-backed state, one settled run to poll.
 * Prints `LISTENING <port> <controlPort> <runId>`.
 */
import { HttpMiddleware, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer, ManagedRuntime } from "effect"
import { mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Emulator, layer } from "@hermetic/emulator"
import type { EmuRequest } from "../../packages/emulator/src/http/Exchange.js"
import { startControl } from "./control.js"

const KEY = "bench-key-0123456789abcdef"
const NEVER = new Promise<void>(() => {})
const runtime = ManagedRuntime.make(layer({ apiKey: KEY, hermesVersion: "0.21.0", dataDir: mkdtempSync(join(tmpdir(), "hermetic-bench-")), maxConcurrentRuns: 0 }))
const emu = await runtime.runPromise(Emulator)

const app = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const body = new Uint8Array(yield* Effect.orDie(request.arrayBuffer))
  const q = request.url.indexOf("?")
  const req: EmuRequest = {
    method: request.method,
    path: q < 0 ? request.url : request.url.slice(0, q),
    query: new URLSearchParams(q < 0 ? "" : request.url.slice(q + 1)),
    headers: request.headers,
    body,
    aborted: NEVER
  }
  const out = yield* Effect.promise(() => emu.respond(req))
  if (out.body._tag !== "bytes") return HttpServerResponse.empty({ status: 500 })
  return HttpServerResponse.uint8Array(out.body.bytes, { status: out.status, headers: Object.fromEntries(out.headers) })
})

// the server's fiber refs are set around its start: its request fibers inherit them
const served = ManagedRuntime.make(
  Layer.scoped(
    HttpServer.HttpServer,
    Effect.gen(function*() {
      const server = yield* NodeHttpServer.make(createServer, { port: 0, host: "127.0.0.1" })
      yield* server.serve(app)
      return server
    })
  ).pipe(HttpMiddleware.withTracerDisabledWhen(() => true), Layer.locally(HttpMiddleware.loggerDisabled, true))
)
const address = await served.runPromise(HttpServer.HttpServer.pipe(Effect.map((s) => s.address)))
if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
const base = `http://127.0.0.1:${address.port}`
const headers = { authorization: `Bearer ${KEY}` }
const admitted = (await (await fetch(`${base}/v1/runs`, { method: "POST", headers, body: JSON.stringify({ input: "seed" }) })).json()) as { run_id: string }
for (let i = 0; i < 1000; i++) {
  const r = (await (await fetch(`${base}/v1/runs/${admitted.run_id}`, { headers })).json()) as { status?: string }
  if (r.status === "completed") break
  await new Promise((resolve) => setTimeout(resolve, 2))
}
const control = await startControl()
const stop = () => void served.dispose().then(() => runtime.dispose()).finally(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
process.stdout.write(`LISTENING ${address.port} ${control} ${admitted.run_id}\n`)
