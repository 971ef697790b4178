/**
 * `oracle fuzz`: differential fuzzing of bad input.
 *
 *   oracle fuzz --count 5000 --seed 1 --out evidence/fuzz
 *     the same malformed requests to the real gateway and to the emulator (both on sockets), compared
 *     like any scenario; exit 0 with no unexplained divergence, 1 otherwise, 2 when it could not run.
 *   oracle fuzz --in-process --count 100000 --seed 2 --reference evidence/fuzz/fuzz-0.19.0.json --out DIR
 *     the emulator alone, in this process: no crash, no state change from a rejected request, and no
 *     5xx for a kind of request the live run saw the real gateway answer below 500.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { type Pin, type RunningEmulator, startEmulator } from "@hermetic/emulator"
import { startGateway } from "@hermetic/oracle-runner"
import { compareAnswers, KNOWN_DIVERGENCES, type NormalizedAnswer, normalizeAnswer } from "./compareFuzz.js"
import type { FuzzCase } from "./FuzzCase.js"
import { generateCases } from "./generateCases.js"
import { type RawAnswer, sendCase } from "./rawExchange.js"

export const FUZZ_HELP = `oracle fuzz — differential fuzzing of malformed requests

  oracle fuzz [--count N] [--seed S] [--pin 0.19.0] --out DIR
      the real gateway and the emulator get the same bytes; evidence: DIR/fuzz-<pin>.json and .md
  oracle fuzz --in-process [--count N] [--seed S] [--reference FILE] --out DIR
      the emulator alone: crashes, state changes from rejected requests, 5xx the reference did not give
`

const caseSummary = (c: FuzzCase) => ({
  id: c.id,
  family: c.family,
  label: c.label,
  method: c.method,
  target: Buffer.from(c.target).toString("latin1").slice(0, 200),
  body: c.body._tag === "bytes" ? Buffer.from(c.body.bytes).toString("latin1").slice(0, 200) : c.body._tag === "none" ? null : c.body
})

interface LiveEvidence {
  readonly kind: "hermetic-fuzz-live"
  readonly pin: Pin
  readonly seed: number
  readonly count: number
  readonly reference: string
  readonly candidate: string
  readonly equal: number
  readonly explained: Readonly<Record<string, number>>
  readonly divergences: ReadonlyArray<{ readonly case: ReturnType<typeof caseSummary>; readonly reference: NormalizedAnswer; readonly emulator: NormalizedAnswer }>
  readonly families: Readonly<Record<string, { readonly cases: number; readonly divergent: number }>>
  readonly referenceStatuses: Readonly<Record<string, number>>
  /** Case labels the real gateway answered with a 5xx: the only ones the emulator may answer so. */
  readonly referenceServerErrorLabels: ReadonlyArray<string>
  /** Case labels the real gateway answered below 500. */
  readonly referenceNonServerErrorLabels: ReadonlyArray<string>
  readonly knownDivergences: ReadonlyArray<{ readonly id: string; readonly reason: string }>
  /** The named hardening cases, answer by answer. */
  readonly claims: ReadonlyArray<{ readonly label: string; readonly verdict: string; readonly real: ClaimAnswer; readonly emulator: ClaimAnswer }>
  readonly durationSeconds: number
}

interface ClaimAnswer {
  readonly statusLine: string
  readonly securityHeaders: boolean
  readonly body: string
}

const claimAnswer = (a: RawAnswer): ClaimAnswer => ({
  statusLine: a.statusLine === "" ? `(no answer: ${a.transport ?? "closed"})` : a.statusLine,
  securityHeaders: a.headers.some(([k]) => k.toLowerCase() === "x-frame-options"),
  body: a.body.slice(0, 160)
})

const bump = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1)

const liveRun = async (pin: Pin, seed: number, count: number, out: string): Promise<number> => {
  const started = performance.now()
  const cases = generateCases(pin, seed, count)
  const gw = await startGateway({ pin, launcher: "process" })
  let emu: RunningEmulator | undefined
  try {
    emu = await startEmulator({ hermesVersion: pin, apiKey: gw.apiKey, port: 0 })
    const gwPort = Number(new URL(gw.baseUrl).port)
    const explained: Record<string, number> = {}
    const statuses: Record<string, number> = {}
    const families: Record<string, { cases: number; divergent: number }> = {}
    const serverErrors = new Set<string>()
    const below = new Set<string>()
    const divergences: Array<LiveEvidence["divergences"][number]> = []
    const claims: Array<LiveEvidence["claims"][number]> = []
    let equal = 0
    for (const c of cases) {
      const reference = await sendCase(gwPort, c, gw.apiKey)
      const candidate = await sendCase(emu.port, c, gw.apiKey)
      const verdict = compareAnswers(c, reference, candidate)
      if (c.label.startsWith("[claim]")) {
        claims.push({ label: c.label.slice(8), verdict: verdict._tag === "explained" ? `explained: ${verdict.rule}` : verdict._tag, real: claimAnswer(reference), emulator: claimAnswer(candidate) })
      }
      const fam = (families[c.family] ??= { cases: 0, divergent: 0 })
      fam.cases++
      bump(statuses, String(reference.status))
      ;(reference.status >= 500 ? serverErrors : below).add(c.label)
      if (verdict._tag === "equal") equal++
      else if (verdict._tag === "explained") bump(explained, verdict.rule)
      else {
        fam.divergent++
        divergences.push({ case: caseSummary(c), reference: verdict.reference, emulator: verdict.emulator })
      }
      if ((c.id + 1) % 500 === 0) process.stderr.write(`fuzz: ${c.id + 1}/${count} cases, ${divergences.length} divergent\n`)
    }
    const evidence: LiveEvidence = {
      kind: "hermetic-fuzz-live",
      pin,
      seed,
      count,
      reference: `real Hermes ${pin} gateway (process launcher) at ${gw.baseUrl}`,
      candidate: `emulator ${pin} over HTTP at ${emu.url}`,
      equal,
      explained,
      divergences,
      families,
      referenceStatuses: statuses,
      referenceServerErrorLabels: [...serverErrors].sort(),
      referenceNonServerErrorLabels: [...below].sort(),
      knownDivergences: KNOWN_DIVERGENCES.map((k) => ({ id: k.id, reason: k.reason })),
      claims,
      durationSeconds: Math.round((performance.now() - started) / 1000)
    }
    mkdirSync(out, { recursive: true })
    writeFileSync(join(out, `fuzz-${pin}.json`), `${JSON.stringify(evidence, null, 2)}\n`)
    writeFileSync(join(out, `fuzz-${pin}.md`), liveMarkdown(evidence))
    process.stdout.write(`fuzz: ${count} cases, ${equal} equal, ${count - equal - divergences.length} explained, ${divergences.length} divergent → ${out}\n`)
    return divergences.length === 0 ? 0 : 1
  } finally {
    await emu?.close()
    await gw.stop()
  }
}

const cell = (a: ClaimAnswer): string => `${a.statusLine.replace(/^HTTP\//, "")} \`${a.body.replace(/[|`\n]/g, " ").slice(0, 90)}\``

const liveMarkdown = (e: LiveEvidence): string => {
  const lines = [
    `# Differential fuzzing: real Hermes ${e.pin} gateway vs the emulator`,
    "",
    `\`oracle fuzz --count ${e.count} --seed ${e.seed}\` sent the same ${e.count} malformed requests, byte for byte, to the ${e.reference} and to the ${e.candidate}.`,
    "",
    `- equal: ${e.equal}`,
    `- explained differences: ${Object.values(e.explained).reduce((a, b) => a + b, 0)} (${Object.entries(e.explained).map(([k, v]) => `${k}: ${v}`).join(", ") || "none"})`,
    `- **unexplained divergences: ${e.divergences.length}**`,
    `- took ${e.durationSeconds} s`,
    "",
    "| family | cases | divergent |",
    "| --- | --- | --- |",
    ...Object.entries(e.families).sort().map(([f, v]) => `| ${f} | ${v.cases} | ${v.divergent} |`),
    "",
    `Real gateway statuses: ${Object.entries(e.referenceStatuses).sort().map(([s, n]) => `${s}: ${n}`).join(", ")}.`,
    "",
    "## The hardening claims, answer by answer",
    "",
    "| case | real gateway | emulator | security headers (real / emulator) | verdict |",
    "| --- | --- | --- | --- | --- |",
    ...e.claims.map((c) => `| ${c.label} | ${cell(c.real)} | ${cell(c.emulator)} | ${c.real.securityHeaders ? "yes" : "no"} / ${c.emulator.securityHeaders ? "yes" : "no"} | ${c.verdict} |`),
    "",
    "## Known differences (each explained)",
    "",
    ...e.knownDivergences.map((k) => `- \`${k.id}\`: ${k.reason}`),
    "",
    `## Divergences (${e.divergences.length})`,
    "",
    ...e.divergences.slice(0, 50).flatMap((d) => [
      `### case ${d.case.id}: ${d.case.label}`,
      "",
      "```",
      `${d.case.method} ${d.case.target}`,
      `real:     ${d.reference.statusLine} ${d.reference.body.slice(0, 300)}`,
      `emulator: ${d.emulator.statusLine} ${d.emulator.body.slice(0, 300)}`,
      "```",
      ""
    ])
  ]
  return `${lines.join("\n")}\n`
}

/** What a rejected request must leave as it was: sessions, jobs, runs, the Script's position. */
const fingerprint = async (emu: RunningEmulator, key: string): Promise<string> => {
  const h = { authorization: `Bearer ${key}`, "x-hermetic-admin-key": key }
  const text = async (path: string) => (await emu.fetch(`http://emulator${path}`, { headers: h })).text()
  const state = JSON.parse(await text("/__admin/state")) as Record<string, unknown>
  return JSON.stringify([await text("/api/sessions?limit=200"), await text("/api/jobs?include_disabled=true"), state["runs"], state["pending_turns"]])
}

const inProcessRun = async (pin: Pin, seed: number, count: number, referenceFile: string | undefined, out: string): Promise<number> => {
  const started = performance.now()
  const key = "hermetic-fuzz-key-0123456789abcdef"
  const reference = referenceFile === undefined ? undefined : (JSON.parse(readFileSync(referenceFile, "utf8")) as LiveEvidence)
  const allowed5xx = new Set(reference?.referenceServerErrorLabels ?? [])
  const seenBelow = new Set(reference?.referenceNonServerErrorLabels ?? [])
  const emu = await startEmulator({ hermesVersion: pin, apiKey: key, port: 0 })
  const statuses: Record<string, number> = {}
  const families: Record<string, number> = {}
  const noAnswer: Array<ReturnType<typeof caseSummary>> = []
  const stateChanges: Array<ReturnType<typeof caseSummary>> = []
  const forbidden5xx: Array<ReturnType<typeof caseSummary> & { readonly status: number }> = []
  const unverified5xx = new Set<string>()
  let healthFailures = 0
  try {
    let before = await fingerprint(emu, key)
    for (let done = 0, batch = 0; done < count; batch++) {
      const n = Math.min(10_000, count - done)
      // cases in batches of 10,000 from seed+batch, so 100,000 never sit in memory at once
      for (const c0 of generateCases(pin, seed + batch, n, batch === 0)) {
        const c = { ...c0, id: done + c0.id }
        const answer = await sendCase(emu.port, c, key)
        bump(statuses, String(answer.status))
        bump(families, c.family)
        if (answer.status === 0 && !(c.body._tag === "chunked-zeros" || c.body._tag === "declared-only")) noAnswer.push(caseSummary(c))
        if (answer.status >= 500) {
          if (seenBelow.has(c.label) && !allowed5xx.has(c.label)) forbidden5xx.push({ ...caseSummary(c), status: answer.status })
          else if (!allowed5xx.has(c.label)) unverified5xx.add(c.label)
        }
        const after = await fingerprint(emu, key)
        if ((answer.status >= 400 || answer.status === 0) && after !== before) stateChanges.push(caseSummary(c))
        before = after
      }
      done += n
      const health = await emu.fetch("http://emulator/health")
      if (health.status !== 200) healthFailures++
      process.stderr.write(`fuzz in process: ${done}/${count}\n`)
    }
  } finally {
    await emu.close()
  }
  const evidence = {
    kind: "hermetic-fuzz-in-process",
    pin,
    seed,
    count,
    reference: referenceFile ?? null,
    statuses,
    families,
    crashes: { unanswered: noAnswer.length, healthFailures, examples: noAnswer.slice(0, 20) },
    stateChangesFromRejected: { count: stateChanges.length, examples: stateChanges.slice(0, 20) },
    serverErrorsTheReferenceDidNotGive: { count: forbidden5xx.length, examples: forbidden5xx.slice(0, 20) },
    serverErrorsNotSeenLive: [...unverified5xx].sort(),
    durationSeconds: Math.round((performance.now() - started) / 1000)
  }
  mkdirSync(out, { recursive: true })
  writeFileSync(join(out, `fuzz-in-process-${pin}.json`), `${JSON.stringify(evidence, null, 2)}\n`)
  process.stdout.write(
    `fuzz in process: ${count} cases in ${evidence.durationSeconds} s; unanswered ${noAnswer.length}, health failures ${healthFailures}, ` +
      `state changes from rejected requests ${stateChanges.length}, 5xx the real gateway did not give ${forbidden5xx.length}, ` +
      `5xx of kinds not seen live ${unverified5xx.size}\n`
  )
  return noAnswer.length + healthFailures + stateChanges.length + forbidden5xx.length === 0 ? 0 : 1
}

export const fuzzCommand = async (argv: ReadonlyArray<string>): Promise<number> => {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      count: { type: "string" },
      seed: { type: "string" },
      pin: { type: "string" },
      out: { type: "string" },
      reference: { type: "string" },
      "in-process": { type: "boolean" },
      help: { type: "boolean" }
    },
    strict: true
  })
  if (values.help === true) {
    process.stdout.write(FUZZ_HELP)
    return 0
  }
  const pin = (values.pin ?? "0.19.0") as Pin
  const count = Number(values.count ?? "5000")
  const seed = Number(values.seed ?? "1")
  const out = values.out
  if (out === undefined || !Number.isInteger(count) || count <= 0 || !Number.isInteger(seed)) {
    process.stderr.write(FUZZ_HELP)
    return 2
  }
  return values["in-process"] === true ? inProcessRun(pin, seed, count, values.reference, out) : liveRun(pin, seed, count, out)
}


