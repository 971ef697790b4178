/** What aiohttp's parser refuses before any route, emulated on the socket (seen on the real 0.19.0; evidence/live-comparisons/fuzz/). */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Emulator, layer } from "../../src/index.js"
import { parserRejection } from "../../src/http/ParserLimits.js"
import { API_KEY, openClients, rawExchange } from "../support.js"

const open = openClients()

const raw = rawExchange

describe("aiohttp's parser limits", () => {
  it("a header value over 8190 bytes, or a second Content-Type, is its HTTP/1.0 400 with the parser's text", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    const auth = `Authorization: Bearer ${API_KEY}\r\n`
    const ok = await raw(c.emu.port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Hermes-Session-Id: ${"v".repeat(8190)}\r\nConnection: close\r\n\r\n`)
    expect(ok).toMatch(/^HTTP\/1\.1 200/)
    const long = await raw(c.emu.port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Long: ${"v".repeat(8191)}\r\n\r\n`)
    expect(long).toMatch(/^HTTP\/1\.0 400 Bad Request\r\nContent-Type: text\/plain; charset=utf-8\r\n/)
    expect(long).toContain(`\r\n\r\nGot more than 8190 bytes when reading: b'${"v".repeat(100)}...'.`)
    const dup = await raw(c.emu.port, `POST /v1/runs HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\ncontent-type: text/plain\r\nContent-Length: 2\r\n\r\n{}`)
    expect(dup).toMatch(/^HTTP\/1\.0 400 Bad Request/)
    expect(dup.endsWith("\r\n\r\nDuplicate 'Content-Type' header found.")).toBe(true)
    // other headers may repeat (aiohttp's first Authorization wins)
    expect(parserRejection(["Authorization", "a", "authorization", "b", "X-A", "1", "x-a", "2"])).toBeUndefined()
  })

  it("in process too, a header value over 8190 bytes is the parser's 400 (its text names the first 100 bytes, quoted as Python would)", async () => {
    const answers = await Effect.runPromise(
      Effect.gen(function*() {
        const emu = yield* Emulator
        const get = (value: string) =>
          Effect.promise(async () => {
            const res = await emu.fetch("http://emulator/health", { headers: { "x-long": value } })
            return { status: res.status, type: res.headers.get("content-type"), length: res.headers.get("content-length"), text: await res.text() }
          })
        return [yield* get("v".repeat(8191)), yield* get(`it's ${"v".repeat(8191)}`), yield* get(`'"${"v".repeat(8191)}`), yield* get("v".repeat(8190))]
      }).pipe(Effect.provide(layer({ hermesVersion: "0.19.0" })), Effect.scoped)
    )
    const [plain, single, both, limit] = answers
    expect(plain).toEqual({ status: 400, type: "text/plain; charset=utf-8", length: "146", text: `Got more than 8190 bytes when reading: b'${"v".repeat(100)}...'.` })
    expect(single?.text).toBe(`Got more than 8190 bytes when reading: b"it's ${"v".repeat(95)}...".`)
    expect(both?.text).toBe(`Got more than 8190 bytes when reading: b'\\'"${"v".repeat(98)}...'.`)
    expect(limit?.status).toBe(200)
  })

  it("CONNECT is a plain 404, and a fragment is no part of the path", async () => {
    const c = await open({ hermesVersion: "0.19.0" })
    expect(await raw(c.emu.port, "CONNECT /v1/responses HTTP/1.1\r\nHost: x\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 404 Not Found\r\nContent-Type: text\/plain; charset=utf-8\r\nContent-Length: 14\r\nDate: [A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\r\nServer: Python\/3\.11 aiohttp\/3\.14\.1\r\nConnection: close\r\n\r\n404: Not Found$/
    )
    const fragment = await raw(c.emu.port, "DELETE /health#frag HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    expect(fragment).toMatch(/^HTTP\/1\.1 405 Method Not Allowed/)
  })
})
