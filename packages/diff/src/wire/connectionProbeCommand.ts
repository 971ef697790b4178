/**
 * `oracle wire --connection-probes`: the connection probes (connectionProbes.ts) played on the real
 * gateway and on the emulator over node:http, one after the other, each step waited for until the
 * server is quiet. The real gateway's outcomes are the recording a replay test judges the emulator
 * against (packages/diff/test/wire.replay.test.ts); the emulator's are kept beside them, with
 * whether the two are alike, as the live comparison.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import { type Pin, startEmulator } from "@hermetic/emulator"
import type { CommandResult } from "../cli/OracleDocument.js"
import { loadOracleRunnerPromise } from "../target/oracleRunner.js"
import { CONNECTION_PROBES, type ConnectionProbe, judgeProbe, playProbe, type ProbeVerdict, type StepOutcome } from "./connectionProbes.js"

/** Live, a step ends once the server sent nothing for this long (aiohttp answers in milliseconds). */
export const QUIET_MS = 500

export interface ProbeRecord {
  readonly name: string
  readonly description: string
  readonly steps: ReadonlyArray<string>
  readonly real: ReadonlyArray<StepOutcome>
  readonly emulator: ReadonlyArray<StepOutcome>
  /** The register entry that explains the answers' differences, if the probe names one. */
  readonly registered?: string
  readonly verdict: ProbeVerdict
}

export interface ConnectionProbeEvidence {
  readonly kind: "hermetic-connection-probes"
  readonly pin: string
  readonly command: string
  readonly recordedAt: string
  readonly loadAverage: ReadonlyArray<number>
  readonly quietMs: number
  readonly probes: ReadonlyArray<ProbeRecord>
}

export const CONNECTION_EVIDENCE_FILE = (pin: string) => `connection-ends-${pin}.json`

const describeStep = (o: StepOutcome) =>
  `${o.answers.length === 0 ? "no answer" : o.answers.map((a) => a.statusLine).join(" + ")}; ${o.ended ? "ended" : "open"}`

export const connectionProbes = async (pin: Pin, out: string, probes: ReadonlyArray<ConnectionProbe> = CONNECTION_PROBES): Promise<CommandResult> => {
  const loadAverage = loadavg().map((l) => Number(l.toFixed(2)))
  const { startGateway } = await loadOracleRunnerPromise("oracle wire --connection-probes")
  const gw = await startGateway({ pin, launcher: "process" })
  const emu = await startEmulator({ hermesVersion: pin, apiKey: gw.apiKey, port: 0 })
  const records: Array<ProbeRecord> = []
  try {
    const gwPort = Number(new URL(gw.baseUrl).port)
    const quiet = () => ({ _tag: "quiet", quietMs: QUIET_MS }) as const
    for (const p of probes) {
      const real = await playProbe(gwPort, p, gw.apiKey, quiet)
      const emulator = await playProbe(emu.port, p, gw.apiKey, quiet)
      records.push({
        name: p.name,
        description: p.description,
        steps: p.steps,
        ...(p.registered !== undefined ? { registered: p.registered } : {}),
        real,
        emulator,
        verdict: judgeProbe(p, real, emulator)
      })
    }
  } finally {
    await emu.close()
    await gw.stop()
  }
  const evidence: ConnectionProbeEvidence = {
    kind: "hermetic-connection-probes",
    pin,
    command: "oracle wire --connection-probes",
    recordedAt: new Date().toISOString(),
    loadAverage,
    quietMs: QUIET_MS,
    probes: records
  }
  mkdirSync(out, { recursive: true })
  const written = join(out, CONNECTION_EVIDENCE_FILE(pin))
  writeFileSync(written, `${JSON.stringify(evidence, null, 2)}\n`)
  const md = [
    `# Connection ends: real Hermes ${pin} gateway vs the emulator`,
    "",
    `\`oracle wire --connection-probes\`: raw bytes in steps on one connection; a step ends after ${QUIET_MS} ms of quiet. Load average at the start ${loadAverage.join(", ")}.`,
    "",
    "| probe | real gateway (per step) | emulator (per step) | verdict |",
    "| --- | --- | --- | --- |",
    ...records.map((r) => `| ${r.name} | ${r.real.map(describeStep).join(" → ")} | ${r.emulator.map(describeStep).join(" → ")} | ${r.verdict === "different" ? "**different**" : r.verdict === "registered" ? `registered (${r.registered})` : "alike"} |`),
    ""
  ].join("\n")
  writeFileSync(join(out, `connection-ends-${pin}.md`), md)
  const count = (v: ProbeVerdict) => records.filter((r) => r.verdict === v).length
  const text = `${md}\nwire: ${records.length} connection probes: ${count("alike")} alike, ${count("registered")} registered, ${count("different")} different\nevidence: ${written}\n`
  return { exitCode: count("different") === 0 ? 0 : 1, text }
}
