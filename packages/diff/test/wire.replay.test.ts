/**
 * The recorded connection probes (`oracle wire --connection-probes`,
 * evidence/live-comparisons/connection-ends/) replayed against the emulator's node:http server in
 * this process: each probe's bytes, step by step on one connection, must get the real 0.19.0
 * gateway's answers (status line, headers but Date, framing, body) and end the connection where
 * it ended it (or keep it where it kept it). Part of the suite that judges the emulator in the
 * mutation score (vitest.mutation.config.ts): the keep-alive decisions of the socket adapter.
 *
 * A replay waits for what was recorded, not for quiet: the recorded answers, then the end, or,
 * where the real gateway kept the connection, a short grace in which no end may come (an early
 * close comes within a millisecond of the answer in this process).
 */
import { readFileSync } from "node:fs"
import { startEmulator } from "@hermetic/emulator"
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DivergenceRegister, registerPath } from "../src/diff/DivergenceRegister.js"
import { CONNECTION_EVIDENCE_FILE, type ConnectionProbeEvidence } from "../src/wire/connectionProbeCommand.js"
import { CONNECTION_PROBES, judgeProbe, playProbe } from "../src/wire/connectionProbes.js"

const PIN = "0.19.0"
const EVIDENCE = new URL(`../../../evidence/live-comparisons/connection-ends/${CONNECTION_EVIDENCE_FILE(PIN)}`, import.meta.url).pathname
const live = JSON.parse(readFileSync(EVIDENCE, "utf8")) as ConnectionProbeEvidence
const register = Schema.decodeUnknownSync(DivergenceRegister)(JSON.parse(readFileSync(registerPath(), "utf8")))
const KEY = "wire-replay-key-0123456789abcdef"
const GRACE_MS = 150
const TIMEOUT_MS = 5_000

let emu: Awaited<ReturnType<typeof startEmulator>>
beforeAll(async () => {
  emu = await startEmulator({ hermesVersion: PIN, apiKey: KEY, port: 0 })
})
afterAll(async () => {
  await emu.close()
})

describe(`the recorded connection probes (${live.command}, real ${live.pin} gateway) replayed against the emulator over node:http`, () => {
  it("holds every probe of the probe list, with the same bytes, and a register entry for each one it names", () => {
    expect(live.probes.map((p) => [p.name, p.steps])).toEqual(CONNECTION_PROBES.map((p) => [p.name, p.steps]))
    const ids = new Set(register.entries.map((e) => e.id))
    for (const p of CONNECTION_PROBES) if (p.registered !== undefined) expect(ids.has(p.registered), p.registered).toBe(true)
  })

  it.each(live.probes.map((p) => [p.name, p] as const))("%s", async (_, recorded) => {
    const probe = CONNECTION_PROBES.find((p) => p.name === recorded.name)
    if (probe === undefined) throw new Error(`no probe named ${recorded.name}`)
    const outcomes = await playProbe(emu.port, probe, KEY, (i) => {
      const outcome = recorded.real[i]
      if (outcome === undefined) throw new Error(`step ${i} has no recorded outcome`)
      return { _tag: "recorded", outcome, graceMs: GRACE_MS, timeoutMs: TIMEOUT_MS }
    })
    if (probe.registered === undefined) expect(outcomes).toEqual(recorded.real)
    // with a register entry, only each answer's status code and the connection's end must agree
    else expect(judgeProbe(probe, recorded.real, outcomes)).not.toBe("different")
  })
})
