/**
 * A header sent twice: aiohttp's `request.headers.get` answers the first line's value, where
 * node:http joins custom headers with ", " (evidence/live-comparisons/routes-edges/, the
 * repeated-header connection probes on the real 0.19.0).
 */
import { describe, expect, it } from "vitest"
import { API_KEY, openClients, rawExchange } from "../support.js"

const open = openClients()

const raw = rawExchange

const chatOnMissingSession = (keys: ReadonlyArray<string>) =>
  [
    "POST /api/sessions/missing/chat HTTP/1.1",
    "Host: x",
    `Authorization: Bearer ${API_KEY}`,
    ...keys.map((k) => `X-Hermes-Session-Key: ${k}`),
    "Content-Type: application/json",
    "Content-Length: 2",
    "Connection: close",
    "",
    "{}"
  ].join("\r\n")

describe("a repeated request header", () => {
  it("is read as its first value: two session keys of 200 characters are not one of 402", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const twice = await raw(c.emu.port, chatOnMissingSession(["a".repeat(200), "b".repeat(200)]))
    // the key passes the 256-character check, so the missing session is what answers
    expect(twice).toMatch(/^HTTP\/1\.1 404 /)
    expect(twice).not.toContain("Session key too long")
    // one key over the limit still is refused, first or not
    const longFirst = await raw(c.emu.port, chatOnMissingSession(["a".repeat(300), "b"]))
    expect(longFirst).toMatch(/^HTTP\/1\.1 400 /)
    expect(longFirst).toContain("Session key too long")
    const longSecond = await raw(c.emu.port, chatOnMissingSession(["b", "a".repeat(300)]))
    expect(longSecond).toMatch(/^HTTP\/1\.1 404 /)
  })
})
