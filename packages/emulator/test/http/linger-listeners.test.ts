/**
 * An answer that goes out before its request's body was parsed (a GET carrying a body, answered at
 * once) lingers over the rest of the body as aiohttp does. The linger listens on the socket; on a
 * kept-alive connection it must not leave a listener behind per request.
 */
import * as net from "node:net"
import { Runtime } from "effect"
import { describe, expect, it } from "vitest"
import { listen } from "../../src/http/NodeAdapter.js"

const REQUESTS = 30

describe("lingering over an unread body", () => {
  it("leaves no listener on a kept-alive socket per request", async () => {
    const server = await listen(
      () => Promise.resolve({ status: 200, headers: [], body: { _tag: "bytes", bytes: new TextEncoder().encode("ok") } }),
      Runtime.defaultRuntime,
      "127.0.0.1",
      0
    )
    const accepted: Array<net.Socket> = []
    server.server.on("connection", (s: net.Socket) => accepted.push(s))
    try {
      const client = net.connect(server.port, "127.0.0.1")
      await new Promise((resolve) => client.once("connect", resolve))
      let answers = 0
      let text = ""
      const allAnswered = new Promise<void>((resolve) =>
        client.on("data", (d) => {
          text += d.toString("latin1")
          answers = text.split("HTTP/1.1 200").length - 1
          if (answers === REQUESTS) resolve()
        })
      )
      // one at a time, each answered before the next goes out
      for (let i = 0; i < REQUESTS; i++) {
        const before = answers
        client.write(`GET /x HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`)
        while (answers === before) await new Promise((r) => setTimeout(r, 1))
      }
      await allAnswered
      expect(accepted).toHaveLength(1)
      // node:http's own listeners are a handful; one per request would be 30 more
      expect(accepted[0]!.listenerCount("close")).toBeLessThan(8)
      client.destroy()
    } finally {
      await server.close()
    }
  })
})
