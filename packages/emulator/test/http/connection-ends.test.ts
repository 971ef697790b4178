/**
 * How the socket adapter heads and ends a connection, as aiohttp does (measured live on the real
 * 0.19.0 gateway: evidence/live-comparisons/connection-ends/): its Connection header says only
 * what differs from the request version's default, an HTTP/1.0 request is answered in HTTP/1.0,
 * and bytes that follow a request closing the connection are not answered at all.
 */
import * as net from "node:net"
import { Runtime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listen, type NodeServer } from "../../src/http/NodeAdapter.js"

let server: NodeServer
beforeAll(async () => {
  server = await listen(
    () => Promise.resolve({ status: 200, headers: [], body: { _tag: "bytes", bytes: new TextEncoder().encode("ok") } }),
    Runtime.defaultRuntime,
    "127.0.0.1",
    0
  )
})
afterAll(() => server.close())

/** Writes `bytes` and reads until the server ends the connection or `forMs` passes. */
const exchange = (bytes: string, forMs = 300): Promise<{ readonly text: string; readonly ended: boolean }> =>
  new Promise((resolve) => {
    const socket = net.connect(server.port, "127.0.0.1")
    let text = ""
    let ended = false
    const done = () => {
      socket.destroy()
      resolve({ text, ended })
    }
    const timer = setTimeout(done, forMs)
    socket.on("data", (d) => (text += d.toString("latin1")))
    socket.on("end", () => {
      ended = true
      clearTimeout(timer)
      done()
    })
    socket.on("error", () => undefined)
    socket.on("connect", () => socket.write(bytes))
  })

const headerLines = (text: string) => text.slice(0, text.indexOf("\r\n\r\n")).split("\r\n")

describe("the socket adapter's Connection header, status line version and connection end", () => {
  it("sends no Connection header on a kept HTTP/1.1 connection, and keeps it", async () => {
    const { text, ended } = await exchange("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
    expect(headerLines(text)[0]).toBe("HTTP/1.1 200 OK")
    expect(headerLines(text).filter((l) => /^connection:/i.test(l))).toEqual([])
    expect(ended).toBe(false)
  })

  it("sends Connection: close when an HTTP/1.1 request asks to close, and closes", async () => {
    const { text, ended } = await exchange("GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 2_000)
    expect(headerLines(text).at(-1)).toBe("Connection: close")
    expect(ended).toBe(true)
  })

  it("answers an HTTP/1.0 request in HTTP/1.0, without a Connection header, and closes", async () => {
    const { text, ended } = await exchange("GET /x HTTP/1.0\r\nHost: x\r\n\r\n", 2_000)
    expect(headerLines(text)[0]).toBe("HTTP/1.0 200 OK")
    expect(headerLines(text).filter((l) => /^connection:/i.test(l))).toEqual([])
    expect(text.endsWith("\r\n\r\nok")).toBe(true)
    expect(ended).toBe(true)
  })

  it("sends Connection: keep-alive to an HTTP/1.0 request asking for it, and keeps the connection", async () => {
    const { text, ended } = await exchange("GET /x HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n")
    expect(headerLines(text)[0]).toBe("HTTP/1.0 200 OK")
    expect(headerLines(text).at(-1)).toBe("Connection: keep-alive")
    expect(ended).toBe(false)
  })

  it("answers an HTTP/2.0 request in HTTP/2.0, without a Connection header, and closes (aiohttp names only 1.0 and 1.1)", async () => {
    const { text, ended } = await exchange("GET /x HTTP/2.0\r\nHost: x\r\n\r\n", 2_000)
    expect(headerLines(text)[0]).toBe("HTTP/2.0 200 OK")
    expect(headerLines(text).filter((l) => /^connection:/i.test(l))).toEqual([])
    expect(ended).toBe(true)
  })

  it("keeps an HTTP/2.0 connection that asks for keep-alive, without a Connection header", async () => {
    const { text, ended } = await exchange("GET /x HTTP/2.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n")
    expect(headerLines(text)[0]).toBe("HTTP/2.0 200 OK")
    expect(headerLines(text).filter((l) => /^connection:/i.test(l))).toEqual([])
    expect(ended).toBe(false)
  })

  it("answers an HTTP/0.9 request with a full head in HTTP/0.9, without a Connection header, and closes", async () => {
    const { text, ended } = await exchange("GET /x HTTP/0.9\r\nHost: x\r\n\r\n", 2_000)
    expect(headerLines(text)[0]).toBe("HTTP/0.9 200 OK")
    expect(headerLines(text).filter((l) => /^connection:/i.test(l))).toEqual([])
    expect(ended).toBe(true)
  })

  it("answers nothing to bytes after a request that closes the connection (no 400), and closes", async () => {
    const { text, ended } = await exchange("GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /y HTTP/1.1\r\nHost: x\r\n\r\n", 2_000)
    expect(text.split("HTTP/1.1 ").length - 1).toBe(1)
    expect(text).not.toContain("400 Bad Request")
    expect(ended).toBe(true)
  })

  it("still answers a request its parser refuses with node:http's bare 400, and closes", async () => {
    const { text, ended } = await exchange("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\n{}   ", 2_000)
    expect(text).toBe("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n")
    expect(ended).toBe(true)
  })
})
