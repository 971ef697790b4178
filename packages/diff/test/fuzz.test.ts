/** The fuzz mode's generator and raw client, against the emulator (the live run is `oracle fuzz`). */
import { readFileSync } from "node:fs"
import { startEmulator } from "@hermetic/emulator"
import { NodeContext } from "@effect/platform-node"
import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { propertyParams } from "../../../test/support/propertySeed.js"
import { DivergenceRegister, registerPath } from "../src/diff/DivergenceRegister.js"
import { readEvidenceFile } from "../src/evidence/readEvidence.js"
import { caseExchange } from "../src/fuzz/caseExchange.js"
import { judgeFuzzCase } from "../src/fuzz/compareFuzzCase.js"
import { type FuzzCase, requestHead, showBytes } from "../src/fuzz/FuzzCase.js"
import { fuzzReference } from "../src/fuzz/fuzzReference.js"
import { generateCases, hardeningCases } from "../src/fuzz/generateCases.js"
import type { RawAnswer } from "../src/rawHttp/sendRaw.js"
import { sendCase } from "../src/rawHttp/sendRaw.js"
import type { TargetInfo } from "../src/target/Target.js"

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

  it("a label stands for exactly one request: no two cases with one label send different bytes", () => {
    const wire = (c: ReturnType<typeof generateCases>[number]) =>
      `${requestHead(c, KEY).toString("latin1")}${c.body._tag === "bytes" ? Buffer.from(c.body.bytes).toString("latin1") : JSON.stringify(c.body)}`
    const seen = new Map<string, string>()
    const cases = generateCases("0.19.0", 7, 4000)
    for (const c of cases) {
      const before = seen.get(c.label)
      if (before !== undefined) expect([c.label, wire(c)]).toEqual([c.label, before])
      seen.set(c.label, wire(c))
    }
    // the path id and the bracket kind, which older labels left out, are in
    expect(cases.some((c) => c.label.includes("/api/jobs/nope"))).toBe(true)
    expect(cases.some((c) => c.label.includes("⟨[×50⟩"))).toBe(true)
    expect(cases.some((c) => c.label.includes("⟨{\"a\":×50⟩"))).toBe(true)
    expect(Math.max(...cases.map((c) => c.label.length))).toBeLessThan(400)
  })

  it("showBytes is one-to-one, repetitions folded included", () => {
    const bytesArb = fc.array(fc.constantFrom(0x61, 0x7b, 0x5c, 0x00, 0xff, 0x5b), { maxLength: 40 }).map((a) => Uint8Array.from(a))
    fc.assert(fc.property(bytesArb, bytesArb, (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0 || showBytes(a) !== showBytes(b)), propertyParams(44_01, { numRuns: 3000 }))
    expect(showBytes(Buffer.from("a".repeat(300)))).toBe("⟨a×300⟩")
    expect(showBytes(Buffer.from([0x5c, 0x78, 0x66, 0x66]))).not.toBe(showBytes(Buffer.from([0xff])))
  })

  it("every case of the committed live run gets an answer from the emulator, and a 5xx only where the real gateway gave one", async () => {
    // the committed live run: common evidence, gzipped
    const live = await Effect.runPromise(readEvidenceFile(new URL("../../../evidence/live-comparisons/fuzz/fuzz-0.19.0.json.gz", import.meta.url).pathname).pipe(Effect.provide(NodeContext.layer)))
    const { serverError, below } = fuzzReference(live)
    const emu = await startEmulator({ hermesVersion: "0.19.0", apiKey: KEY, port: 0 })
    try {
      // the live run's own requests (the same seed gives the same cases), so every label is in the reference
      const cases = generateCases("0.19.0", live.provenance.seed ?? -1, live.provenance.runs).filter((c) => c.body._tag !== "chunked-zeros").slice(0, 300)
      let serverErrorsChecked = 0
      for (const c of cases) {
        expect(serverError.has(c.label) || below.has(c.label)).toBe(true)
        const answer = await sendCase(emu.port, c, KEY, 5_000)
        if (c.body._tag !== "declared-only") expect([c.label, answer.status === 0]).toEqual([c.label, false])
        if (answer.status >= 500) {
          expect([c.label, serverError.has(c.label)]).toEqual([c.label, true])
          serverErrorsChecked++
        }
      }
      expect(serverErrorsChecked).toBeGreaterThan(5)
      expect((await emu.fetch("http://emulator/health")).status).toBe(200)
    } finally {
      await emu.close()
    }
  }, 120_000)

  it("judges a case with the scenario normalizer and the package's register, naming the entry that tolerates a difference", () => {
    const c = generateCases("0.19.0", 1, 1)[0]
    if (c === undefined) throw new Error("no case")
    const register = Schema.decodeUnknownSync(DivergenceRegister)(JSON.parse(readFileSync(registerPath(), "utf8")))
    const verdict = (reference: RawAnswer, candidate: RawAnswer) => {
      const judged = judgeFuzzCase(c, 1, played(REAL, c, reference), played(EMU, c, candidate), { register, pin: "0.19.0" })
      const tolerating = judged.evidence.steps.flatMap((s) => s.differences).map((d) => d.reason?.split(":")[0])
      return { verdict: judged.evidence.verdict, by: [...new Set(tolerating)] }
    }
    expect(verdict(answer("HTTP/1.1 201 Created", "{\"id\": \"api_1796044995_0123abcd\"}"), answer("HTTP/1.1 201 Created", "{\"id\": \"api_1796049999_ffffffff\"}")).verdict).toBe("equal")
    // aiohttp's parser refusal (HTTP/1.0, text) against node:http's bare 400: the register's entry, for every part of the answer
    expect(verdict(answer("HTTP/1.0 400 Bad Request", "Invalid header value char", "text/plain"), answer("HTTP/1.1 400 Bad Request", ""))).toEqual({ verdict: "tolerated", by: ["http-parser-rejection-text"] })
    expect(verdict(answer("HTTP/1.0 400 Bad Request", "Line too long", "text/plain"), answer("HTTP/1.1 431 Request Header Fields Too Large", ""))).toEqual({ verdict: "tolerated", by: ["header-size-limits"] })
    // the same difference from an HTTP/1.1 answer is not a parser refusal: a divergence
    expect(verdict(answer("HTTP/1.1 400 Bad Request", "Invalid header value char", "text/plain"), answer("HTTP/1.1 400 Bad Request", "")).verdict).toBe("divergent")
    expect(verdict(answer("HTTP/1.1 404 Not Found", "a"), answer("HTTP/1.1 405 Method Not Allowed", "a")).verdict).toBe("divergent")
    // ids go through the scenario normalizer's id rules: which id is random, where it reappears is compared
    const run = (hex: string) => `run_${hex.repeat(32)}`
    const twice = (a: string, b: string) => answer("HTTP/1.1 200 OK", `{"run_id": "${a}", "echo": "${b}"}`)
    expect(verdict(twice(run("a"), run("a")), twice(run("b"), run("b"))).verdict).toBe("equal")
    expect(verdict(twice(run("a"), run("a")), twice(run("b"), run("c"))).verdict).toBe("divergent")
  })
})

const REAL: TargetInfo = { kind: "gateway-process", pin: "0.19.0", real: true, clock: "running", description: "test reference" }
const EMU: TargetInfo = { kind: "emulator-http", pin: "0.19.0", real: false, clock: "running", description: "test candidate" }

/** A raw answer as sendCase gives it: the head's names in order, a JSON body unless told otherwise. */
const answer = (statusLine: string, body: string, contentType = "application/json"): RawAnswer => ({
  statusLine,
  status: Number(statusLine.split(" ")[1]),
  headers: [["Content-Type", contentType], ["Date", "x"]],
  body,
  framing: "content-length"
})

const played = (info: TargetInfo, c: FuzzCase, a: RawAnswer) => ({ info, exchange: caseExchange(c, a), durationMs: 1 })
