/**
 * The rest of a body the answer left unread is discarded for aiohttp's 10 s, then the connection
 * ends (checked against the real 0.19.0 gateway: evidence/live-comparisons/upload-linger/upload-linger-0.19.0.md).
 * 14 s of real time on real sockets: a slow test, run by the CI smoke (`npm run test:slow`).
 */
import * as net from "node:net"
import { describe, expect, it } from "vitest"
import { openClients } from "../support.js"

const open = openClients()

const status = (head: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)

describe("an unread request body", () => {
  it("the rest of a body the answer left unread is discarded for aiohttp's 10 s, then the connection ends", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const head = "POST /nonexistent HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    // a slow client (0.5 MB every 100 ms) is still sending after 10 s: the real gateway ended the
    // connection at 10.0 s (evidence/live-comparisons/upload-linger/upload-linger-0.19.0.md); a fast one finishes and keeps it
    const closing = head.replace("Transfer-Encoding", "Connection: close\r\nTransfer-Encoding")
    const [slow, fast, slowClose] = await Promise.all([
      dribble(c.emu.port, head, 500_000, 14_000),
      dribble(c.emu.port, head, Infinity, 14_000, 40_000_000),
      // node:http would end a Connection: close socket with the answer; aiohttp lingers the same 10 s
      dribble(c.emu.port, closing, 500_000, 14_000)
    ])
    expect(status(slowClose.answer)).toBe(404)
    expect(slowClose.endedMs).toBeGreaterThan(9_500)
    expect(slowClose.endedMs).toBeLessThan(12_500)
    expect(status(slow.answer)).toBe(404)
    expect(slow.endedMs).toBeGreaterThan(9_500)
    expect(slow.endedMs).toBeLessThan(12_500)
    expect(slow.sent).toBeGreaterThan(20_000_000)
    expect(status(fast.answer)).toBe(404)
    expect(fast.sent).toBeGreaterThanOrEqual(40_000_000)
    // the whole upload was read and the connection kept: a second request on it is answered
    expect(fast.endedMs).toBeUndefined()
    expect(status(fast.second)).toBe(200)
  }, 30_000)
})

/**
 * Chunked zeros after `head`, `perTick` bytes every 100 ms, up to `total`, for `forMs`: the answer,
 * the bytes sent, when the server ended the connection (undefined: it kept it), and, once the
 * whole body went out on a kept connection, the answer to a GET /health sent on it.
 */
const dribble = (port: number, head: string, perTick: number, forMs: number, total = Infinity) =>
  new Promise<{ answer: string; sent: number; endedMs: number | undefined; second: string }>((resolve) => {
    const started = performance.now()
    const socket = net.connect(port, "127.0.0.1")
    const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000), Buffer.from("\r\n")])
    let answer = ""
    let second = ""
    let sent = 0
    let endedMs: number | undefined
    let finished = false
    const finish = () => {
      if (finished) return
      finished = true
      socket.destroy()
      resolve({ answer, sent, endedMs, second })
    }
    socket.on("data", (d) => {
      if (sent >= total) second += d.toString("latin1")
      else answer += d.toString("latin1")
    })
    socket.on("end", () => {
      endedMs ??= performance.now() - started
      finish()
    })
    socket.on("error", () => {
      endedMs ??= performance.now() - started
      finish()
    })
    setTimeout(finish, forMs)
    socket.on("connect", () => {
      socket.write(head)
      const pump = () => {
        let tick = 0
        while (!finished && sent < total) {
          if (tick >= perTick) return void setTimeout(pump, 100)
          sent += 0x10000
          tick += 0x10000
          if (!socket.write(chunk)) return void socket.once("drain", pump)
        }
        if (!finished) socket.write("0\r\n\r\nGET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      }
      pump()
    })
  })
