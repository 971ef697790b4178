/**
 * The in-process fetch keeps a body's framing: a stream body is chunked (no Content-Length), as
 * fetch sends it over a socket. Over the 10 MB limit that decides the answer — a declared length
 * gets the body-limit middleware's 413, a chunked body the handler's 400 "Invalid JSON" (checked
 * against the real 0.19.0 gateway: packages/diff/scenarios/http-body-limit-413.json).
 */
import { startEmulator } from "@hermetic/emulator"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const KEY = "hermetic-test-key-0123456789abcdef"
const OVER = 10_000_001

const streamOf = (size: number) => {
  let left = size
  const chunk = new Uint8Array(64 * 1024).fill(120)
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (left <= 0) return c.close()
      const n = Math.min(left, chunk.length)
      left -= n
      c.enqueue(chunk.subarray(0, n))
    }
  })
}

describe("in-process body framing", () => {
  let emu: Awaited<ReturnType<typeof startEmulator>>
  beforeAll(async () => {
    emu = await startEmulator({ hermesVersion: "0.19.0", apiKey: KEY, port: 0 })
  })
  afterAll(() => emu.close())

  const post = (body: BodyInit, extra: Record<string, unknown> = {}) =>
    emu.fetch("http://emulator.invalid/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body,
      ...extra
    } as RequestInit)

  it("a declared length over the limit gets 413 body_too_large", async () => {
    const res = await post(Buffer.alloc(OVER, "x"))
    expect(res.status).toBe(413)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("body_too_large")
  })

  it("a chunked body over the limit gets the handler's 400 Invalid JSON", async () => {
    const res = await post(streamOf(OVER), { duplex: "half" })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe("Invalid JSON in request body")
  })
})
