/**
 * A limit on every door: the recorder, the replayer and the control plane refuse a body over
 * `serve`'s limit with the API's 413, a declared one before any byte arrives (a client that
 * declares 300 MB and sends nothing gets its answer at once, not Node's 408 minutes later).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { MAX_REQUEST_BYTES } from "../../src/http/RequestBody.js"
import { startRecorder } from "../../src/record/Recorder.js"
import { startReplayer } from "../../src/record/Replayer.js"
import { API_KEY, openClients } from "../support.js"

const open = openClients()
const dirs: Array<string> = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

/** Sends only a request head declaring `length` bytes; resolves with the status line's code. */
const declareOnly = (url: string, path: string, length: number): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const u = new URL(url)
    const socket = connect(Number(u.port), u.hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${API_KEY}\r\nContent-Length: ${length}\r\n\r\n`
      )
    })
    let got = ""
    socket.on("data", (c: Buffer) => {
      got += c.toString("utf8")
      const head = got.indexOf("\r\n\r\n")
      if (head >= 0 && got.includes("}")) {
        socket.destroy()
        resolve({ status: Number(got.slice(9, 12)), body: got.slice(head + 4) })
      }
    })
    socket.on("error", reject)
  })

describe("body limits on every door", () => {
  it("the control plane answers a declared oversize body at once with the API's 413", async () => {
    const c = await open()
    for (const path of ["/__admin/script", "/__admin/snapshot"]) {
      const r = await declareOnly(c.emu.url, path, 300_000_000)
      expect(r.status).toBe(413)
      expect(r.body).toContain("body_too_large")
    }
  })

  it("the recorder and the replayer refuse a declared oversize body and a streamed one", async () => {
    const upstream = await open()
    const out = mkdtempSync(join(tmpdir(), "hermetic-limits-"))
    dirs.push(out)
    const recorder = await startRecorder({ upstream: upstream.emu.url, out })
    const declaredToRecorder = await declareOnly(recorder.url, "/v1/chat/completions", 300_000_000)
    const streamed = await fetch(`${recorder.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      body: new ReadableStream({
        start(ctrl) {
          // chunked: no Content-Length, only the bytes tell
          for (let i = 0; i < 12; i++) ctrl.enqueue(new Uint8Array(MAX_REQUEST_BYTES / 10))
          ctrl.close()
        }
      }),
      duplex: "half"
    } as RequestInit)
    await recorder.close()
    const replay = await startReplayer({ dir: out, speed: 0 })
    try {
      const declaredToReplayer = await declareOnly(replay.url, "/v1/chat/completions", 300_000_000)
      expect([declaredToRecorder.status, streamed.status, declaredToReplayer.status]).toEqual([413, 413, 413])
      expect((await streamed.json()) as unknown).toMatchObject({ error: { code: "body_too_large" } })
    } finally {
      await replay.close()
    }
  })
})
