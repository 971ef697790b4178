/** The fuzz mode's generator and raw client, against the emulator (the live run is `oracle fuzz`). */
import { readFileSync } from "node:fs"
import { startEmulator } from "@hermetic/emulator"
import { describe, expect, it } from "vitest"
import { compareAnswers } from "../src/fuzz/compareFuzz.js"
import { requestHead } from "../src/fuzz/FuzzCase.js"
import { generateCases, hardeningCases } from "../src/fuzz/generateCases.js"
import { sendCase } from "../src/fuzz/rawExchange.js"

const KEY = "fuzz-test-key-0123456789abcdef"

describe("oracle fuzz", () => {
  it("generates the same bytes from the same seed, every family, the named claims first", () => {
    const a = generateCases("0.19.0", 5, 2000)
    const b = generateCases("0.19.0", 5, 2000)
    expect(a.map((c) => requestHead(c, KEY).toString("latin1"))).toEqual(b.map((c) => requestHead(c, KEY).toString("latin1")))
    expect(new Set(a.map((c) => c.family))).toEqual(
      new Set(["method", "path", "invalid-json", "wrong-types", "deep-nesting", "oversize", "invalid-utf8", "content-type", "duplicate-headers", "long-header", "auth"])
    )
    expect(a.slice(0, hardeningCases().length).every((c) => c.label.startsWith("[claim]"))).toBe(true)
    expect(generateCases("0.19.0", 6, 2000).map((c) => c.label)).not.toEqual(a.map((c) => c.label))
  })

  it("every case gets an answer from the emulator; no 5xx where the committed live run saw the real gateway answer below 500", async () => {
    const live = JSON.parse(readFileSync(new URL("../../../evidence/fuzz/fuzz-0.19.0.json", import.meta.url), "utf8")) as {
      readonly referenceServerErrorLabels: ReadonlyArray<string>
      readonly referenceNonServerErrorLabels: ReadonlyArray<string>
    }
    const serverErrors = new Set(live.referenceServerErrorLabels)
    const below = new Set(live.referenceNonServerErrorLabels)
    const emu = await startEmulator({ hermesVersion: "0.19.0", apiKey: KEY, port: 0 })
    try {
      let checked = 0
      for (const c of generateCases("0.19.0", 9, 250)) {
        const answer = await sendCase(emu.port, c, KEY, 5_000)
        if (c.body._tag !== "declared-only") expect([c.label, answer.status === 0]).toEqual([c.label, false])
        if (answer.status >= 500 && below.has(c.label)) expect([c.label, serverErrors.has(c.label)]).toEqual([c.label, true])
        if (below.has(c.label) || serverErrors.has(c.label)) checked++
      }
      expect(checked).toBeGreaterThan(50)
      expect((await emu.fetch("http://emulator/health")).status).toBe(200)
    } finally {
      await emu.close()
    }
  }, 120_000)

  it("compares normalized answers and names the rule that explains a difference", () => {
    const c = generateCases("0.19.0", 1, 1)[0]
    if (c === undefined) throw new Error("no case")
    const answer = (statusLine: string, body: string) => ({ statusLine, status: Number(statusLine.split(" ")[1]), headers: [["Date", "x"]] as const, body })
    expect(compareAnswers(c, answer("HTTP/1.1 201 Created", "{\"id\": \"api_1796044995_0123abcd\"}"), answer("HTTP/1.1 201 Created", "{\"id\": \"api_1796049999_ffffffff\"}"))._tag).toBe("equal")
    expect(compareAnswers(c, answer("HTTP/1.0 400 Bad Request", "Invalid header value char"), answer("HTTP/1.1 400 Bad Request", ""))).toEqual({ _tag: "explained", rule: "http-parser-rejection-text" })
    expect(compareAnswers(c, answer("HTTP/1.1 404 Not Found", "a"), answer("HTTP/1.1 405 Method Not Allowed", "a"))._tag).toBe("divergent")
  })
})
