/**
 * A fetch over a raw TCP socket: the request is written as HTTP/1.1 bytes we build ourselves
 * (header order and casing as given, a fixed Host, one request per connection), and the answer's
 * head is kept exactly as it came — status line with its reason phrase, header names in wire order
 * with their casing, and the framing (Content-Length, chunked, or delimited by the close) — which
 * fetch hides (it lower-cases and sorts headers and decodes the framing). The body is handed on as
 * a stream, de-chunked as it arrives, so SSE reads work as with fetch.
 */
import * as net from "node:net"
import { Dechunker, type Framing, framingOf, headerValue, parseHead } from "./rawHead.js"

export type { Framing } from "./rawHead.js"

export interface RawHead {
  /** The request bytes' head as sent (the body is described by its length only). */
  readonly requestHead: string
  readonly requestBodyBytes: number
  /** "HTTP/1.1 200 OK" */
  readonly statusLine: string
  /** Header names in wire order, with their casing. */
  readonly headerNames: ReadonlyArray<string>
  readonly framing: Framing
}

const heads = new WeakMap<Response, RawHead>()

/** The head a Response of rawFetch came with (undefined for any other Response). */
export const rawHeadOf = (res: Response): RawHead | undefined => heads.get(res)

/** The Host header both sides get, so the request bytes do not depend on the port. */
export const WIRE_HOST = "127.0.0.1"

const bodyBytes = async (body: RequestInit["body"]): Promise<Buffer | { readonly chunked: Buffer }> => {
  if (body === undefined || body === null) return Buffer.alloc(0)
  if (typeof body === "string") return Buffer.from(body, "utf8")
  if (body instanceof Uint8Array) return Buffer.from(body)
  if (body instanceof ReadableStream) {
    const parts: Array<Uint8Array> = []
    // a stream is what the scenario sends chunked (generatedBody.chunked): sent chunked here too
    const reader = (body as ReadableStream<Uint8Array>).getReader()
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      parts.push(Buffer.from(`${next.value.byteLength.toString(16)}\r\n`), next.value, Buffer.from("\r\n"))
    }
    parts.push(Buffer.from("0\r\n\r\n"))
    return { chunked: Buffer.concat(parts) }
  }
  throw new Error("rawFetch: unsupported body type")
}

/** The request as bytes: request line, headers in the order given, then Host and Content-Length. */
export const requestBytes = (method: string, path: string, headers: ReadonlyArray<readonly [string, string]>, body: Buffer | { readonly chunked: Buffer }): Buffer => {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${WIRE_HOST}`]
  for (const [k, v] of headers) lines.push(`${k}: ${v}`)
  if (!Buffer.isBuffer(body)) lines.push("Transfer-Encoding: chunked")
  else if (body.length > 0 || method === "POST" || method === "PUT" || method === "PATCH") lines.push(`Content-Length: ${body.length}`)
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), Buffer.isBuffer(body) ? body : body.chunked])
}

/**
 * fetch(url, init) over a raw socket; the head as it came is `rawHeadOf(response)` (and goes to `onHead`). Only what the differ
 * sends is supported: string, buffer or stream bodies, plain-object headers.
 */
export const rawFetch = async (url: string, init: RequestInit, onHead?: (head: RawHead) => void): Promise<Response> => {
  const u = new URL(url)
  const method = (init.method ?? "GET").toUpperCase()
  const headers = Object.entries((init.headers ?? {}) as Record<string, string>).filter(([k]) => k.toLowerCase() !== "host" && k.toLowerCase() !== "content-length")
  const body = await bodyBytes(init.body)
  const bytes = requestBytes(method, `${u.pathname}${u.search}`, headers, body)
  const requestHead = bytes.subarray(0, bytes.indexOf("\r\n\r\n")).toString("latin1")
  const requestBodyBytes = bytes.length - requestHead.length - 4
  return new Promise<Response>((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname)
    let head: Buffer | null = Buffer.alloc(0)
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined
    let remaining = Infinity
    let dechunker: Dechunker | undefined
    let settled = false
    const finish = () => {
      if (controller !== undefined) {
        try {
          controller.close()
        } catch {
          // already closed or cancelled
        }
      }
      socket.destroy()
    }
    const deliver = (b: Buffer) => {
      if (b.length === 0) return
      controller?.enqueue(new Uint8Array(b))
    }
    const onBody = (data: Buffer) => {
      if (dechunker !== undefined) {
        dechunker.push(data, deliver)
        if (dechunker.done) finish()
        return
      }
      const part = data.subarray(0, Math.min(data.length, remaining))
      deliver(part)
      remaining -= part.length
      if (remaining <= 0) finish()
    }
    socket.on("data", (data: Buffer) => {
      if (head === null) return onBody(data)
      head = Buffer.concat([head, data])
      const end = head.indexOf("\r\n\r\n")
      if (end < 0) return
      const parsed = parseHead(head.subarray(0, end))
      const { statusLine, status, headers: pairs } = parsed
      const rest = head.subarray(end + 4)
      head = null
      const framing: Framing = framingOf(parsed, method)
      const bodyless = framing === "none"
      if (framing === "chunked") dechunker = new Dechunker()
      else if (framing === "content-length") remaining = Number(headerValue(parsed, "content-length"))
      else if (bodyless) remaining = 0
      const stream = new ReadableStream<Uint8Array>({
        start: (c) => {
          controller = c
        },
        cancel: () => void socket.destroy()
      })
      const responseHeaders = new Headers()
      for (const [k, v] of pairs) {
        try {
          responseHeaders.append(k, v)
        } catch {
          // a header value fetch would refuse: the head above still has its name
        }
      }
      settled = true
      const response = new Response(bodyless || status < 200 ? null : stream, { status: status < 200 || status > 599 ? 500 : status, headers: responseHeaders })
      const raw = { requestHead, requestBodyBytes, statusLine, headerNames: pairs.map(([k]) => k), framing }
      heads.set(response, raw)
      onHead?.(raw)
      resolve(response)
      if (remaining <= 0) finish()
      else if (rest.length > 0) onBody(rest)
    })
    socket.on("end", finish)
    socket.on("close", finish)
    socket.on("error", (e) => {
      if (!settled) reject(new TypeError("fetch failed", { cause: e }))
      else {
        try {
          controller?.error(e)
        } catch {
          // the body was already complete
        }
      }
    })
    socket.on("connect", () => socket.write(bytes))
  })
}
