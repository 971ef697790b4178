/**
 * The raw-socket comparison's parts, offline: rawFetch keeps the head as it came (status line,
 * header names in order with their casing, framing) and still hands on the body (de-chunked); the
 * head travels in the Exchange through the normalizer, and the differ compares it only when both
 * sides have one.
 */
import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { diffRuns } from "../src/diff/diffRuns.js"
import type { Exchange, ResponseHead } from "../src/exchange/Exchange.js"
import { readResponse } from "../src/exchange/readResponse.js"
import { normalizeRun } from "../src/normalize/normalizeRun.js"
import { type RawHead, rawFetch, rawHeadOf } from "../src/rawHttp/rawFetch.js"
import type { Scenario } from "../src/scenario/Scenario.js"

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

describe("the head in the Exchange", () => {
  it("readResponse keeps a rawFetch answer's head and adds none to a fetch answer", async () => {
    const res = await rawFetch(`http://127.0.0.1:${port}/chunked`, {})
    expect(rawHeadOf(res)?.statusLine).toBe("HTTP/1.1 200 OK")
    const wire = await readResponse(res, { deadlineMs: 2_000 })
    expect(wire.head).toEqual({ statusLine: "HTTP/1.1 200 OK", headerNames: ["Content-Type", "Transfer-Encoding", "x-lower"], framing: "chunked" })
    const plain = await readResponse(await fetch(`http://127.0.0.1:${port}/x`), { deadlineMs: 2_000 })
    expect(plain.status).toBe(404)
    expect(plain.head).toBeUndefined()
  })
})

const scenario: Scenario = { version: 1, name: "heads", steps: [{ request: { method: "GET", path: "/health", auth: "none" } }] }

const exchange = (head: ResponseHead | undefined): Exchange => ({
  request: { method: "GET", path: "/health", headers: {}, auth: "none" },
  response: { status: 200, headers: [["content-type", "application/json"]], body: { kind: "json", text: "{}" }, ...(head !== undefined ? { head } : {}) }
})

const headDifferences = (a: ResponseHead | undefined, b: ResponseHead | undefined) => {
  const run = (h: ResponseHead | undefined) =>
    normalizeRun({ scenario: "heads", target: "t", pin: "0.19.0", steps: [{ index: 0, kind: "request", exchanges: [exchange(h)] }], durationMs: 0 }, scenario, { clock: "running" })
  return diffRuns(run(a), run(b)).map((d) => [d.kind, d.path, d.expected, d.actual])
}

const head = (headerNames: Array<string>, statusLine = "HTTP/1.1 200 OK", framing: ResponseHead["framing"] = "content-length"): ResponseHead => ({ statusLine, headerNames, framing })

describe("head differences", () => {
  it("none for equal heads; status line, header names (casing or order) and framing each their own kind", () => {
    expect(headDifferences(head(["A", "B"]), head(["A", "B"]))).toEqual([])
    expect(headDifferences(head(["Content-Type"]), head(["content-type"]))).toEqual([["header-names", "$.response.head.headerNames", ["Content-Type"], ["content-type"]]])
    expect(headDifferences(head(["A", "B"]), head(["B", "A"]))).toEqual([["header-names", "$.response.head.headerNames", ["A", "B"], ["B", "A"]]])
    expect(headDifferences(head([], "HTTP/1.1 413 Request Entity Too Large"), head([], "HTTP/1.1 413 Payload Too Large"))).toEqual([
      ["status-line", "$.response.head.statusLine", "HTTP/1.1 413 Request Entity Too Large", "HTTP/1.1 413 Payload Too Large"]
    ])
    expect(headDifferences(head([], undefined, "chunked"), head([], undefined, "close"))).toEqual([["framing", "$.response.head.framing", "chunked", "close"]])
  })

  it("compares heads only when both sides went over a raw socket", () => {
    expect(headDifferences(head(["A"]), undefined)).toEqual([])
    expect(headDifferences(undefined, head(["B"], "HTTP/1.0 400 Bad Request"))).toEqual([])
  })
})
