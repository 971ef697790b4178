/** The emulator behind a fetch-style function: web Request in, web Response out, no socket. */
import { type Effect, type Runtime, Stream } from "effect"
import type { EmuRequest, EmuResponse } from "./Exchange.js"

export const toEmuRequest = async (request: Request): Promise<EmuRequest> => {
  const url = new URL(request.url)
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value
  })
  const body = new Uint8Array(await request.arrayBuffer())
  if (!("content-length" in headers) && body.byteLength > 0) headers["content-length"] = String(body.byteLength)
  const aborted = new Promise<void>((resolve) => {
    if (request.signal.aborted) resolve()
    else request.signal.addEventListener("abort", () => resolve(), { once: true })
  })
  return { method: request.method.toUpperCase(), path: url.pathname, query: url.searchParams, headers, body, aborted }
}

export const toWebResponse = <R>(res: EmuResponse, runtime: Runtime.Runtime<R>): Response => {
  const headers = new Headers()
  for (const [k, v] of res.headers) headers.append(k, v)
  switch (res.body._tag) {
    case "drop":
      throw new TypeError("fetch failed: the emulator dropped the connection (injected fault)")
    case "bytes":
      return new Response(res.body.bytes.byteLength === 0 ? null : (res.body.bytes as Uint8Array<ArrayBuffer>), {
        status: res.status,
        headers
      })
    case "sse": {
      const limit = res.body.disconnectAfter
      const frames = limit === undefined ? res.body.frames : res.body.frames.pipe(Stream.take(limit))
      const encoder = new TextEncoder()
      const stream = Stream.toReadableStreamRuntime(Stream.map(frames, (f) => encoder.encode(f)), runtime)
      return new Response(stream, { status: res.status, headers })
    }
  }
}

export type EmuHandle = (req: EmuRequest) => Effect.Effect<EmuResponse>

export const makeFetch =
  <R>(respond: (req: EmuRequest) => EmuResponse | Promise<EmuResponse>, runtime: Runtime.Runtime<R>) =>
  async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init)
    const res = await respond(await toEmuRequest(request))
    return toWebResponse(res, runtime)
  }
