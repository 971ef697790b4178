/**
 * Request bodies are read only when a handler needs them, and never past aiohttp's 10 MB limit
 * (the answers below were checked against the real 0.19.0 gateway; evidence/hardening/).
 */
import * as net from "node:net"
import { describe, expect, it } from "vitest"
import { API_KEY, openClients } from "../support.js"

const open = openClients()

interface Upload {
  readonly head: string
  /** Bytes of body the client had sent when the answer's head arrived (it stops sending then). */
  readonly sent: number
  /** Milliseconds to the answer's head. */
  readonly ms: number
}

/** Sends `head`, then chunked zeros up to `total` bytes while watching for the answer. */
const chunkedUpload = (port: number, head: string, total: number): Promise<Upload> =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const socket = net.connect(port, "127.0.0.1")
    const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000), Buffer.from("\r\n")])
    let sent = 0
    let answer = ""
    let finished = false
    // what the server did, not how long this client kept pumping afterwards on a loaded machine:
    // the bytes sent and the time are taken when the answer's head arrives, and sending stops then
    let answered: { sent: number; ms: number } | undefined
    const finish = () => {
      if (finished) return
      finished = true
      socket.destroy()
      resolve({ head: answer, ...(answered ?? { sent, ms: performance.now() - started }) })
    }
    socket.on("data", (d) => {
      answer += d.toString("latin1")
      if (answered === undefined && answer.includes("\r\n\r\n")) {
        answered = { sent, ms: performance.now() - started }
        setTimeout(finish, 50)
      }
    })
    socket.on("error", () => finish())
    socket.on("close", finish)
    socket.on("connect", () => {
      socket.write(head)
      const pump = () => {
        while (!finished && answered === undefined && sent < total) {
          sent += 0x10000
          if (!socket.write(chunk)) return void socket.once("drain", pump)
        }
        if (!finished && answered === undefined && sent >= total) socket.write("0\r\n\r\n")
      }
      pump()
    })
    setTimeout(() => (finished ? undefined : reject(new Error(`no answer after ${sent} bytes`))), 20_000)
  })

const status = (head: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)

describe("bounded request bodies", () => {
  it("a declared Content-Length over the limit is answered 413 at once, before any body byte", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const up = await chunkedUpload(
      c.emu.port,
      "POST /v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 300000000\r\n\r\n",
      0
    )
    expect(status(up.head)).toBe(413)
    // aiohttp's reason phrase is Python's
    expect(up.head.startsWith("HTTP/1.1 413 Request Entity Too Large\r\n")).toBe(true)
    expect(up.head).toContain('"code": "body_too_large"')
    expect(up.ms).toBeLessThan(2000)
  })

  it("a chunked upload to an unknown route gets its 404 without the server reading it", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const up = await chunkedUpload(c.emu.port, "POST /nonexistent HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n", 200_000_000)
    expect(status(up.head)).toBe(404)
    // the server answered long before the 200 MB were through
    expect(up.sent).toBeLessThan(60_000_000)
  })

  it("a chunked body over the limit stops at the limit: Invalid JSON for agent routes, the Python text for jobs", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const auth = `Authorization: Bearer ${API_KEY}\r\n`
    const runs = await chunkedUpload(c.emu.port, `POST /v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Transfer-Encoding: chunked\r\n\r\n`, 200_000_000)
    expect(status(runs.head), JSON.stringify(runs)).toBe(400)
    expect(runs.head).toContain("Invalid JSON")
    expect(runs.sent).toBeLessThan(60_000_000)
    const jobs = await chunkedUpload(c.emu.port, `POST /api/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Transfer-Encoding: chunked\r\n\r\n`, 12_000_000)
    expect(status(jobs.head)).toBe(500)
    expect(jobs.head).toContain('{"error": "Request Entity Too Large"}')
  })

  it("a chunked control-plane body over the limit is the control plane's own 413, read up to the limit only", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const guard = `x-hermetic-admin-key: ${API_KEY}\r\nContent-Type: application/json\r\n`
    const up = await chunkedUpload(c.emu.port, `POST /__admin/script HTTP/1.1\r\nHost: 127.0.0.1\r\n${guard}Transfer-Encoding: chunked\r\n\r\n`, 200_000_000)
    expect(status(up.head), JSON.stringify(up)).toBe(413)
    expect(up.head).toContain("control plane request body too large")
    expect(up.sent).toBeLessThan(60_000_000)
  })

  it("a 401 does not wait for the body either", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const up = await chunkedUpload(c.emu.port, "POST /v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n", 200_000_000)
    expect(status(up.head)).toBe(401)
    expect(up.sent).toBeLessThan(60_000_000)
  })

  it("a body over a MiB (kept in a temporary file while it arrives) reaches the handler whole", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const r = await c.request("POST", "/api/jobs", { body: { name: "n", schedule: "every 1h", prompt: `${"x".repeat(3_000_000)}!` } })
    expect([r.status, await r.text()]).toEqual([400, '{"error": "Prompt must be \\u2264 5000 characters"}'])
    // a byte short of whole would be a JSON error, and a prompt short enough is stored as sent
    const prompt = `${"p".repeat(1_500_000)}é`.slice(0, 4_000)
    const job = await c.request("POST", "/api/jobs", { body: { name: "n", schedule: "every 1h", padding: "z".repeat(2_000_000), prompt } })
    const stored = (await job.json()) as { job?: { prompt: string } }
    expect([job.status, stored.job?.prompt]).toEqual([200, prompt])
  })

  it("small bodies the answer did not need keep the connection usable", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${c.emu.url}/nonexistent`, { method: "POST", body: "x".repeat(1000) })
      expect(r.status).toBe(404)
      await r.text()
    }
  })

  it("a handler reads the body where upstream's awaits it: its own checks answer a client that withholds a declared body", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const auth = `Authorization: Bearer ${API_KEY}\r\nContent-Type: application/json\r\n`
    const withheld = (method: string, path: string) => firstAnswer(c.emu.port, `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Length: 12\r\n\r\n`, 1_500)
    // upstream (gateway/platforms/api_server.py) checks these before `await request.json()`
    expect(status(await withheld("PATCH", "/api/sessions/missing"))).toBe(404)
    expect(status(await withheld("POST", "/api/sessions/missing/fork"))).toBe(404)
    expect(status(await withheld("POST", "/api/sessions/missing/chat"))).toBe(404)
    expect(status(await withheld("POST", "/v1/runs/run_missing/approval"))).toBe(404)
    expect(status(await withheld("PATCH", "/api/jobs/not-a-hex-id"))).toBe(400)
    // handlers that never read it
    expect(status(await withheld("POST", "/v1/runs/run_missing/stop"))).toBe(404)
    expect(status(await withheld("POST", "/api/platforms/x/events"))).toBe(503)
    // and where upstream reads it first, the answer waits for it, as upstream's does
    expect(await withheld("POST", "/api/sessions")).toBe("")
    expect(await withheld("POST", "/api/jobs")).toBe("")
  })
})

/** The first answer to `head` (a declared body never sent), or "" if none came within `waitMs`. */
const firstAnswer = (port: number, head: string, waitMs: number): Promise<string> =>
  new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1")
    let answer = ""
    const timer = setTimeout(() => {
      socket.destroy()
      resolve(answer)
    }, waitMs)
    socket.on("data", (d) => {
      answer += d.toString("latin1")
      if (answer.includes("\r\n\r\n")) {
        clearTimeout(timer)
        socket.destroy()
        resolve(answer)
      }
    })
    socket.on("error", () => undefined)
    socket.on("connect", () => socket.write(head))
  })
