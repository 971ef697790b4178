/**
 * One fuzz case over a fresh TCP connection: the bytes go out as they are, and the answer is read
 * as it comes (status line, headers in wire order, body), whether or not the server read the body.
 */
import * as net from "node:net"
import { type FuzzCase, requestHead } from "./FuzzCase.js"

export interface RawAnswer {
  /** "HTTP/1.1 404 Not Found"; "" when the connection closed with no answer. */
  readonly statusLine: string
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: string
  /** Why nothing (or not all) came back: "closed", "reset", "timeout". */
  readonly transport?: string
}

const CHUNK = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000), Buffer.from("\r\n")])

const parse = (raw: Buffer, transport: string | undefined): RawAnswer => {
  const end = raw.indexOf("\r\n\r\n")
  if (end < 0) return { statusLine: "", status: 0, headers: [], body: "", transport: transport ?? "closed" }
  const [statusLine = "", ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n")
  const headers = lines.map((l) => {
    const colon = l.indexOf(":")
    return [l.slice(0, colon), l.slice(colon + 1).trim()] as const
  })
  let body = raw.subarray(end + 4)
  const chunked = headers.some(([k, v]) => k.toLowerCase() === "transfer-encoding" && v.toLowerCase() === "chunked")
  if (chunked) body = dechunk(body)
  return {
    statusLine,
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0),
    headers,
    body: body.toString("utf8"),
    ...(transport === undefined ? {} : { transport })
  }
}

/** A whole answer with a Content-Length is in: no need to wait for the close. */
const complete = (raw: Buffer): boolean => {
  const end = raw.indexOf("\r\n\r\n")
  if (end < 0) return false
  const length = /\r\ncontent-length: *(\d+)/i.exec(raw.subarray(0, end).toString("latin1"))?.[1]
  return length !== undefined && raw.length - (end + 4) >= Number(length)
}

const dechunk = (b: Buffer): Buffer => {
  const out: Array<Buffer> = []
  let i = 0
  while (i < b.length) {
    const eol = b.indexOf("\r\n", i)
    if (eol < 0) break
    const size = parseInt(b.subarray(i, eol).toString("latin1"), 16)
    if (!(size > 0)) break
    out.push(b.subarray(eol + 2, eol + 2 + size))
    i = eol + 2 + size + 2
  }
  return Buffer.concat(out)
}

export const sendCase = (port: number, c: FuzzCase, key: string, timeoutMs = 15_000): Promise<RawAnswer> =>
  new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1")
    const received: Array<Buffer> = []
    let transport: string | undefined
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve(parse(Buffer.concat(received), transport))
    }
    const timer = setTimeout(() => {
      transport = "timeout"
      finish()
    }, timeoutMs)
    socket.on("data", (d) => {
      received.push(d)
      if (complete(Buffer.concat(received))) finish()
    })
    socket.on("end", finish)
    socket.on("close", finish)
    socket.on("error", (e: NodeJS.ErrnoException) => {
      // a reset after the answer arrived is the server ending an unread upload
      if (received.length === 0) transport = e.code === "ECONNRESET" ? "reset" : String(e.code)
      finish()
    })
    socket.on("connect", () => {
      socket.write(requestHead(c, key))
      const body = c.body
      if (body._tag === "bytes") socket.write(body.bytes)
      else if (body._tag === "chunked-zeros") {
        let sent = 0
        const pump = () => {
          while (!done && sent < body.size) {
            sent += 0x10000
            if (!socket.write(CHUNK)) return void socket.once("drain", pump)
          }
          if (!done) socket.write("0\r\n\r\n")
        }
        pump()
      }
    })
  })
