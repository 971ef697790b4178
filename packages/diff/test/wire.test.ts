/**
 * The raw-socket comparison's parts, offline: rawFetch keeps the head as it came (status line,
 * header names in order with their casing, framing) and still hands on the body (de-chunked);
 * compareHeads tells casing from order; collapsePolls pairs sides that polled a different number of times.
 */
import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RawHead, rawFetch } from "../src/rawHttp/rawFetch.js"
import { collapsePolls, compareHeads } from "../src/wire/wireCommand.js"

let server: net.Server
let port = 0
let lastRequest = ""

beforeAll(async () => {
  server = net.createServer((socket) => {
    let got = ""
    socket.on("data", (d) => {
      got += d.toString("latin1")
      if (!got.includes("\r\n\r\n")) return
      lastRequest = got
      if (got.startsWith("GET /chunked")) {
        socket.end("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nx-lower: 1\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
      } else if (got.startsWith("GET /close")) {
        socket.end("HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\n\r\nboom")
      } else {
        socket.end("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 2\r\nDate: x\r\nServer: y\r\n\r\n{}")
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
  port = (server.address() as net.AddressInfo).port
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

const fetchHead = async (path: string, init: RequestInit = {}) => {
  let head: RawHead | undefined
  const res = await rawFetch(`http://127.0.0.1:${port}${path}`, init, (h) => (head = h))
  return { res, text: await res.text(), head: head as RawHead }
}

describe("rawFetch", () => {
  it("keeps the status line, header names as sent and Content-Length framing", async () => {
    const { res, text, head } = await fetchHead("/x", { method: "POST", headers: { "X-Mixed-Case": "1", authorization: "Bearer k" }, body: "{}" })
    expect(res.status).toBe(404)
    expect(text).toBe("{}")
    expect(head.statusLine).toBe("HTTP/1.1 404 Not Found")
    expect(head.headerNames).toEqual(["Content-Type", "Content-Length", "Date", "Server"])
    expect(head.framing).toBe("content-length")
    // the request went out as given: our header order and casing, a fixed Host, the length last
    expect(lastRequest).toBe("POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Mixed-Case: 1\r\nauthorization: Bearer k\r\nContent-Length: 2\r\n\r\n{}")
  })

  it("de-chunks a chunked body and reports chunked framing with lower-case names kept", async () => {
    const { text, head } = await fetchHead("/chunked")
    expect(text).toBe("hello world")
    expect(head.framing).toBe("chunked")
    expect(head.headerNames).toEqual(["Content-Type", "Transfer-Encoding", "x-lower"])
  })

  it("reads a close-delimited body", async () => {
    const { res, text, head } = await fetchHead("/close")
    expect(res.status).toBe(500)
    expect(text).toBe("boom")
    expect(head.framing).toBe("close")
  })
})

const head = (names: Array<string>, statusLine = "HTTP/1.1 200 OK", framing: RawHead["framing"] = "content-length"): RawHead => ({
  requestHead: "GET / HTTP/1.1",
  requestBodyBytes: 0,
  statusLine,
  headerNames: names,
  framing
})

describe("compareHeads", () => {
  it("is empty for equal heads and names casing, order, status line and framing apart", () => {
    expect(compareHeads(head(["A", "B"]), head(["A", "B"]))).toEqual([])
    expect(compareHeads(head(["Content-Type"]), head(["content-type"]))[0]).toMatch(/^header-name casing/)
    expect(compareHeads(head(["A", "B"]), head(["B", "A"]))[0]).toMatch(/^header names\/order/)
    expect(compareHeads(head([], "HTTP/1.1 413 Request Entity Too Large"), head([], "HTTP/1.1 413 Payload Too Large"))[0]).toMatch(/^status line/)
    expect(compareHeads(head([], undefined, "chunked"), head([], undefined, "close"))).toEqual(["framing: chunked vs close"])
  })
})

describe("collapsePolls", () => {
  it("keeps the last of each run of identical requests", () => {
    const r = (requestHead: string, statusLine: string): RawHead => ({ ...head([]), requestHead, statusLine })
    const heads = [r("GET /a", "1"), r("GET /a", "2"), r("GET /a", "3"), r("GET /b", "4"), r("GET /a", "5")]
    expect(collapsePolls(heads).map((h) => h.statusLine)).toEqual(["3", "4", "5"])
  })
})
