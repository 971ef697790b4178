/**
 * A client that goes away in the middle of its upload: the read fails, and the emulator neither
 * calls that an internal error (no crash line on stderr) nor acts on the half body.
 */
import * as net from "node:net"
import { afterEach, describe, expect, it, vi } from "vitest"
import { API_KEY, openClients } from "../support.js"

const open = openClients()
afterEach(() => {
  vi.restoreAllMocks()
})

/** Sends the head and part of a declared body, then resets the connection. */
const abandonUpload = (port: number, head: string, part: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(head + part, () => setTimeout(() => socket.resetAndDestroy(), 100))
    })
    socket.on("close", () => resolve())
    socket.on("error", reject)
  })

describe("a client gone mid-upload", () => {
  it("writes no crash line and creates nothing", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const written: Array<string> = []
    vi.spyOn(process.stderr, "write").mockImplementation(((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    }) as typeof process.stderr.write)
    const body = JSON.stringify({ name: "half", schedule: "every 1h", prompt: "p".repeat(2_000) })
    const head = `POST /api/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${API_KEY}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`
    await abandonUpload(c.emu.port, head, body.slice(0, body.length - 10))
    // the server has seen the reset once it answers the next request on a new connection
    const jobs = await c.request("GET", "/api/jobs")
    expect(jobs.status).toBe(200)
    expect(((await jobs.json()) as { jobs: Array<unknown> }).jobs).toEqual([])
    expect(written.filter((line) => line.includes("internal error"))).toEqual([])
  })
})
