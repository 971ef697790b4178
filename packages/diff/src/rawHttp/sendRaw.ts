/**
 * One request as raw bytes (a fuzz case) over a fresh TCP connection: the bytes go out as they are, and the answer is read
 * as it comes (status line, headers in wire order, body), whether or not the server read the body.
 */
import * as net from "node:net"
import { type FuzzCase, requestHead } from "../fuzz/FuzzCase.js"
import { dechunk, type Framing, framingOf, headerValue, parseHead } from "./rawHead.js"

export interface RawAnswer {
  /** "HTTP/1.1 404 Not Found"; "" when the connection closed with no answer. */
  readonly statusLine: string
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: string
  /** How the body was delimited ("none" also when nothing came back). */
  readonly framing: Framing
  /** Why nothing (or not all) came back: "closed", "reset", "timeout". */
  readonly transport?: string
}

const CHUNK = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000), Buffer.from("\r\n")])

const parse = (raw: Buffer, method: string, transport: string | undefined): RawAnswer => {
  const end = raw.indexOf("\r\n\r\n")
  if (end < 0) return { statusLine: "", status: 0, headers: [], body: "", framing: "none", transport: transport ?? "closed" }
  const head = parseHead(raw.subarray(0, end))
  const framing = framingOf(head, method)
  const body = framing === "chunked" ? dechunk(raw.subarray(end + 4)) : raw.subarray(end + 4)
  return { ...head, body: body.toString("utf8"), framing, ...(transport === undefined ? {} : { transport }) }
}

/** A whole answer with a Content-Length is in: no need to wait for the close. */
const complete = (raw: Buffer): boolean => {
  const end = raw.indexOf("\r\n\r\n")
  if (end < 0) return false
  const length = headerValue(parseHead(raw.subarray(0, end)), "content-length")
  return length !== undefined && raw.length - (end + 4) >= Number(length)
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
      resolve(parse(Buffer.concat(received), c.method, transport))
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
