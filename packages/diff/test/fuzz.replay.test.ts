/**
 * The committed live fuzz run replayed against the emulator, case by case: the bytes fetch cannot
 * send (parser limits, framing, broken headers and bodies) with the real Hermes 0.19.0 gateway's
 * recorded answers as the expectation, judged on the shared pipeline (normalizer, differ,
 * register). Part of the suite that judges the emulator in the mutation score
 * (vitest.mutation.config.ts): each case runs on a fresh emulator after the writes it met live
 * (fuzz/recordedFuzzRun.ts), so Stryker may run any subset of the cases and each still means what it meant live.
 */
import { readFileSync } from "node:fs"
import { NodeContext } from "@effect/platform-node"
import { startEmulator } from "@hermetic/emulator"
import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { DivergenceRegister, registerPath } from "../src/diff/DivergenceRegister.js"
import { readEvidenceFile } from "../src/evidence/readEvidence.js"
import { caseExchange } from "../src/fuzz/caseExchange.js"
import { judgeRecordedCase, recordedFuzzRun } from "../src/fuzz/recordedFuzzRun.js"
import { sendCase } from "../src/rawHttp/sendRaw.js"

const EVIDENCE = new URL("../../../evidence/live-comparisons/fuzz/fuzz-0.19.0.json.gz", import.meta.url).pathname
const live = await Effect.runPromise(readEvidenceFile(EVIDENCE).pipe(Effect.provide(NodeContext.layer)))
const register = Schema.decodeUnknownSync(DivergenceRegister)(JSON.parse(readFileSync(registerPath(), "utf8")))
const cases = recordedFuzzRun(live)
// the emulator takes any key: the cases carry `{{KEY}}` where the live run's key went
const KEY = "fuzz-replay-key-0123456789abcdef"
const settings = { register, pin: live.provenance.pin }

describe(`the live fuzz run (${live.provenance.command ?? "oracle fuzz"}) replayed against the emulator over node:http`, () => {
  it("holds every case of the run, and the real gateway accepted some writes that later cases met", () => {
    expect(cases.length).toBe(live.provenance.runs)
    expect(cases.at(-1)?.before.length).toBeGreaterThan(0)
  })

  it.each(cases.map((r) => [`#${r.case.id} ${r.case.label.slice(0, 160)}`, r] as const))("%s", async (_, recorded) => {
    const emu = await startEmulator({ hermesVersion: settings.pin as "0.19.0", apiKey: KEY, port: 0 })
    try {
      for (const write of recorded.before) await sendCase(emu.port, write, KEY, 5_000)
      const answer = await sendCase(emu.port, recorded.case, KEY, 5_000)
      const judged = judgeRecordedCase(recorded, caseExchange(recorded.case, answer), settings)
      const divergences = judged.evidence.steps.flatMap((s) => s.differences).filter((d) => d.classification === "divergence")
      expect(divergences.map((d) => `${d.path}: real ${JSON.stringify(d.expected)}, emulator ${JSON.stringify(d.actual)}`)).toEqual([])
      // the same verdict the live run gave (equal stays equal; tolerated stays tolerated, by the register)
      expect(judged.evidence.verdict).toBe(recorded.evidence.verdict)
    } finally {
      await emu.close()
    }
  })
})
