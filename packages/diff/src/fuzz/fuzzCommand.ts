/**
 * `oracle fuzz`: differential fuzzing of bad input.
 *
 *   oracle fuzz --count 5000 --seed 1 --out evidence/live-comparisons/fuzz
 *     the same malformed requests to the real gateway and to the emulator (both on sockets), each
 *     judged like a scenario (judgeRuns: normalizer, differ, register) into common evidence that
 *     `oracle report` and `merge` read; exit 0 with no unexplained divergence, 1 otherwise, 2 when
 *     it could not run.
 *   oracle fuzz --in-process --count 100000 --seed 2 --reference evidence/live-comparisons/fuzz/fuzz-0.19.0.json.gz --live-check --out DIR
 *     the emulator alone, in this process: no crash, no state change from a rejected request, and no
 *     5xx the real gateway would not give: each 5xx's request (by its exact label) is in the live
 *     reference as a 5xx, or, with --live-check, is sent to the real gateway afterwards and gets one.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { basename, join } from "node:path"
import { type Pin, type RunningEmulator, startEmulator } from "@hermetic/emulator"
import { Effect } from "effect"
import { intFlag, type ParsedArgs, pinOf } from "../cli/args.js"
import { CouldNotRun, UsageError } from "../cli/CliError.js"
import type { CommandResult } from "../cli/OracleDocument.js"
import { progressMeter } from "../cli/progress.js"
import { provenanceFor } from "../cli/provenanceFor.js"
import { firedCounts } from "../compare/compareAll.js"
import type { ScenarioComparison } from "../compare/judgeRuns.js"
import { loadRegister } from "../diff/DivergenceRegister.js"
import { assembleEvidence } from "../evidence/assembleEvidence.js"
import { readEvidenceFile } from "../evidence/readEvidence.js"
import { writeReportSection } from "../evidence/reportSection.js"
import { writeEvidence } from "../evidence/writeEvidence.js"
import { sendCase } from "../rawHttp/sendRaw.js"
import { rawSocketTarget } from "../target/RawTarget.js"
import { compareFuzzCase } from "./compareFuzzCase.js"
import type { FuzzCase } from "./FuzzCase.js"
import { type FuzzReference, fuzzReference } from "./fuzzReference.js"
import { generateCases } from "./generateCases.js"
import { uploadProbes } from "./uploadProbe.js"
import { loadOracleRunner, loadOracleRunnerPromise } from "../target/oracleRunner.js"

/** What a fuzz run hands back: its exit code, the verdict line, its counts and the evidence file. */
export interface FuzzOutcome {
  readonly exitCode: 0 | 1
  readonly text: string
  readonly counts: Readonly<Record<string, number>>
  readonly written: string
}

const caseSummary = (c: FuzzCase) => ({
  id: c.id,
  family: c.family,
  label: c.label,
  method: c.method,
  target: Buffer.from(c.target).toString("latin1").slice(0, 200),
  body: c.body._tag === "bytes" ? Buffer.from(c.body.bytes).toString("latin1").slice(0, 200) : c.body._tag === "none" ? null : c.body
})

const bump = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1)

const couldNotRun = (e: unknown) => new CouldNotRun({ message: `fuzz: ${e instanceof Error ? e.message : String(e)}` })

/** Per family: cases and how many were divergent, for the verdict line. */
const familyLine = (comparisons: ReadonlyArray<ScenarioComparison>): string => {
  const families = new Map<string, { cases: number; divergent: number }>()
  for (const c of comparisons) {
    const family = (c.evidence.origin as { readonly family?: string } | undefined)?.family ?? "?"
    const f = families.get(family) ?? { cases: 0, divergent: 0 }
    f.cases++
    if (c.evidence.verdict === "divergent") f.divergent++
    families.set(family, f)
  }
  return [...families].sort(([a], [b]) => a.localeCompare(b)).map(([f, v]) => `${f} ${v.cases}${v.divergent > 0 ? ` (${v.divergent} divergent)` : ""}`).join(", ")
}

/**
 * The live run: every case, byte for byte, to the real gateway and to the emulator (both on
 * sockets, one after the other), judged by the shared pipeline and written as common evidence.
 */
const liveRun = (pin: Pin, seed: number, count: number, out: string) =>
  Effect.gen(function*() {
    const startedAt = new Date().toISOString()
    const t0 = performance.now()
    const register = yield* loadRegister()
    const cases = generateCases(pin, seed, count)
    const { startGateway } = yield* loadOracleRunner("oracle fuzz")
    const gw = yield* Effect.acquireRelease(Effect.tryPromise({ try: () => startGateway({ pin, launcher: "process" }), catch: couldNotRun }), (g) => Effect.promise(() => g.stop()))
    // the emulator takes the gateway's key, so the Authorization bytes are the same on both sides
    const emu = yield* Effect.acquireRelease(
      Effect.tryPromise({ try: () => startEmulator({ hermesVersion: pin, apiKey: gw.apiKey, port: 0 }), catch: couldNotRun }),
      (e) => Effect.promise(() => e.close())
    )
    const reference = rawSocketTarget(
      { kind: "gateway-process", pin, real: true, clock: "running", description: `real Hermes ${pin} gateway (process launcher), raw socket` },
      Number(new URL(gw.baseUrl).port),
      gw.apiKey
    )
    const candidate = rawSocketTarget({ kind: "emulator-http", pin, real: false, clock: "running", description: `emulator ${pin} over HTTP (node:http), raw socket` }, emu.port, gw.apiKey)
    const settings = { register, pin }
    const comparisons: Array<ScenarioComparison> = []
    const meter = progressMeter(cases.length, { lineEvery: 500 })
    let divergent = 0
    for (const c of cases) {
      const judged = yield* compareFuzzCase(reference, candidate, c, seed, settings)
      if (judged.evidence.verdict === "divergent") divergent++
      comparisons.push(judged)
      meter.tick(c.id + 1, `${divergent} divergent`)
    }
    meter.end()
    const provenance = yield* provenanceFor(pin, "process", true, count, seed)
    const evidence = assembleEvidence({
      scenarios: comparisons.map((c) => c.evidence),
      fired: firedCounts(comparisons),
      noise: { method: "not learned: each case is sent once to each side, so only the register tolerates a difference", observations: [] },
      register,
      clock: "running",
      provenance: { ...provenance, pin, reference: { ...reference.info }, candidate: { ...candidate.info }, startedAt, finishedAt: new Date().toISOString() },
      wallSeconds: (performance.now() - t0) / 1000
    })
    const written = yield* writeEvidence(evidence, out, `fuzz-${pin}`)
    const { equal, tolerated } = evidence.summary
    return {
      exitCode: evidence.summary.divergent === 0 ? 0 : 1,
      text: `fuzz: ${cases.length} cases, ${equal} equal, ${tolerated} tolerated by the register, ${evidence.summary.divergent} divergent (${familyLine(comparisons)}) → ${written.report}\n`,
      counts: { cases: cases.length, equal, explained: tolerated, divergent: evidence.summary.divergent },
      written: written.json
    } satisfies FuzzOutcome
  }).pipe(Effect.scoped)

/**
 * What a rejected request must leave as it was, in two reads. `counters`, one control-plane call
 * after every case: rows written to durable state (SQLite's write counter), runs known and live,
 * the Script's pending turns, draining (the clock reading left out). `contents`, the namespace's
 * durable tables in full (a snapshot), read only when the write counter moved: a rejected request
 * may write and undo (upstream's session create inserts, then deletes on a bad title), and only
 * a difference in contents is a change of state.
 */
const adminHeaders = (key: string) => ({ "x-hermetic-admin-key": key, "content-type": "application/json" })

const counters = async (emu: RunningEmulator, key: string): Promise<{ readonly writes: number; readonly rest: string }> => {
  const answer = await emu.fetch("http://emulator/__admin/state", { headers: adminHeaders(key) })
  const { now: _now, writes, ...rest } = (await answer.json()) as Record<string, unknown>
  if (answer.status !== 200 || typeof writes !== "number") throw new Error(`/__admin/state answered ${answer.status}`)
  return { writes, rest: JSON.stringify(rest) }
}

const contents = async (emu: RunningEmulator, key: string): Promise<string> => {
  const answer = await emu.fetch("http://emulator/__admin/snapshot", { method: "POST", headers: adminHeaders(key), body: "{\"action\": \"save\"}" })
  const body = (await answer.json()) as { readonly snapshot?: { readonly tables?: unknown } }
  if (answer.status !== 200 || body.snapshot?.tables === undefined) throw new Error(`/__admin/snapshot answered ${answer.status}`)
  return JSON.stringify(body.snapshot.tables)
}

/**
 * A case that declares a body it never sends is answered at once or waits for the body: in
 * process there is no slow gateway to wait for, so a second tells them apart.
 */
const IN_PROCESS_DECLARED_ONLY_WAIT_MS = 1_000

type CaseSummary = ReturnType<typeof caseSummary>

/**
 * The emulator's 5xx answers to requests the live reference did not contain, sent to the real
 * gateway byte for byte (one per label): a 5xx there too verifies it, a lower status makes it
 * a 5xx the real gateway would not give.
 */
const checkLive = async (pin: Pin, cases: ReadonlyArray<FuzzCase & { readonly emulatorStatus: number }>) => {
  const verified: Array<{ readonly label: string; readonly emulator: number; readonly real: number }> = []
  const refuted: Array<CaseSummary & { readonly emulator: number; readonly real: number; readonly realBody: string }> = []
  if (cases.length === 0) return { sent: 0, verified, refuted, gateway: "(not started: nothing to check)" }
  const { startGateway } = await loadOracleRunnerPromise("oracle fuzz --live-check")
  const gw = await startGateway({ pin, launcher: "process" })
  try {
    const port = Number(new URL(gw.baseUrl).port)
    for (const c of cases) {
      const real = await sendCase(port, c, gw.apiKey)
      if (real.status >= 500) verified.push({ label: c.label, emulator: c.emulatorStatus, real: real.status })
      else refuted.push({ ...caseSummary(c), emulator: c.emulatorStatus, real: real.status, realBody: real.body.slice(0, 300) })
    }
    return { sent: cases.length, verified, refuted, gateway: `real Hermes ${pin} gateway (process launcher) at ${gw.baseUrl}` }
  } finally {
    await gw.stop()
  }
}

const inProcessRun = async (pin: Pin, seed: number, count: number, referenceFile: string | undefined, reference: FuzzReference | undefined, liveCheck: boolean, out: string): Promise<FuzzOutcome> => {
  const started = performance.now()
  const loadAtStart = loadavg()
  const key = "hermetic-fuzz-key-0123456789abcdef"
  const allowed5xx = reference?.serverError ?? new Set<string>()
  const seenBelow = reference?.below ?? new Set<string>()
  const emu = await startEmulator({ hermesVersion: pin, apiKey: key, port: 0 })
  const statuses: Record<string, number> = {}
  const families: Record<string, number> = {}
  const noAnswer: Array<CaseSummary> = []
  const stateChanges: Array<CaseSummary & { readonly status: number; readonly what: string }> = []
  // rejected requests that wrote rows and left the contents as they were
  let writesUndone = 0
  const forbidden5xx: Array<CaseSummary & { readonly status: number }> = []
  let verifiedByReference = 0
  // the first case of each label the reference did not contain, for the live check
  const unverified5xx = new Map<string, FuzzCase & { readonly emulatorStatus: number }>()
  let live: Awaited<ReturnType<typeof checkLive>> | undefined
  let healthFailures = 0
  let done = 0
  // written after every batch, so a long run that is stopped still leaves what it checked
  const write = () => {
    const serverErrors = Object.entries(statuses).filter(([s]) => Number(s) >= 500).reduce((n, [, v]) => n + v, 0)
    const evidence = {
      kind: "hermetic-fuzz-in-process",
      pin,
      seed,
      requested: count,
      done,
      reference: referenceFile ?? null,
      statuses,
      families,
      crashes: { unanswered: noAnswer.length, healthFailures, examples: noAnswer.slice(0, 20) },
      stateChangesFromRejected: { count: stateChanges.length, examples: stateChanges.slice(0, 20), rejectedThatWroteAndUndid: writesUndone },
      serverErrors: {
        answered: serverErrors,
        verifiedByTheReference: verifiedByReference,
        theReferenceAnsweredBelow500: { count: forbidden5xx.length, examples: forbidden5xx.slice(0, 20) },
        notInTheReference: unverified5xx.size,
        checkedLive: live === undefined
          ? null
          : { gateway: live.gateway, sent: live.sent, realGateway5xx: live.verified.length, realGatewayBelow500: { count: live.refuted.length, examples: live.refuted.slice(0, 20) } },
        unverified: live === undefined ? unverified5xx.size : 0
      },
      loadAverage: { start: loadAtStart.map((l) => Number(l.toFixed(2))), end: loadavg().map((l) => Number(l.toFixed(2))) },
      durationSeconds: Math.round((performance.now() - started) / 1000)
    }
    mkdirSync(out, { recursive: true })
    writeFileSync(join(out, `fuzz-in-process-${pin}.json`), `${JSON.stringify(evidence, null, 2)}\n`)
    return evidence
  }
  try {
    let before = await counters(emu, key)
    let contentsBefore = await contents(emu, key)
    for (let batch = 0; done < count; batch++) {
      const n = Math.min(2_000, count - done)
      // cases in batches from seed+batch, so 100,000 never sit in memory at once
      for (const c0 of generateCases(pin, seed + batch, n, batch === 0)) {
        const c = { ...c0, id: done + c0.id }
        const answer = await sendCase(emu.port, c, key, c.body._tag === "declared-only" ? IN_PROCESS_DECLARED_ONLY_WAIT_MS : undefined)
        bump(statuses, String(answer.status))
        bump(families, c.family)
        if (answer.status === 0 && !(c.body._tag === "chunked-zeros" || c.body._tag === "declared-only")) noAnswer.push(caseSummary(c))
        if (answer.status >= 500) {
          if (allowed5xx.has(c.label)) verifiedByReference++
          else if (seenBelow.has(c.label)) forbidden5xx.push({ ...caseSummary(c), status: answer.status })
          else if (!unverified5xx.has(c.label)) unverified5xx.set(c.label, { ...c, emulatorStatus: answer.status })
        }
        const rejected = answer.status >= 400 || answer.status === 0
        const after = await counters(emu, key)
        const changed: Array<string> = []
        if (after.rest !== before.rest) changed.push(`${before.rest} → ${after.rest}`)
        if (after.writes !== before.writes) {
          const contentsAfter = await contents(emu, key)
          if (contentsAfter !== contentsBefore) changed.push(`durable state (${after.writes - before.writes} rows written)`)
          else if (rejected) writesUndone++
          contentsBefore = contentsAfter
        }
        if (rejected && changed.length > 0) stateChanges.push({ ...caseSummary(c), status: answer.status, what: changed.join("; ") })
        before = after
      }
      done += n
      const health = await emu.fetch("http://emulator/health")
      if (health.status !== 200) healthFailures++
      write()
      process.stderr.write(`fuzz in process: ${done}/${count}, ${Math.round((performance.now() - started) / 1000)} s\n`)
    }
  } finally {
    await emu.close()
  }
  if (liveCheck) {
    process.stderr.write(`fuzz in process: ${unverified5xx.size} 5xx kinds not in the reference, sent to the real gateway\n`)
    live = await checkLive(pin, [...unverified5xx.values()])
  }
  const evidence = write()
  const refutedLive = live?.refuted.length ?? 0
  const unverified = live === undefined ? unverified5xx.size : 0
  const text =
    `fuzz in process: ${done} cases in ${evidence.durationSeconds} s; unanswered ${noAnswer.length}, health failures ${healthFailures}, ` +
      `state changes from rejected requests ${stateChanges.length}; 5xx ${evidence.serverErrors.answered}: ${verifiedByReference} verified by the reference, ` +
      `${forbidden5xx.length} the reference answered below 500, ${unverified5xx.size} not in it` +
      (live === undefined ? " (unverified: no --live-check)" : ` (checked live: ${live.verified.length} 5xx on the real gateway too, ${refutedLive} below 500)`) + "\n"
  const counts = {
    cases: done,
    unanswered: noAnswer.length,
    healthFailures,
    stateChangesFromRejected: stateChanges.length,
    serverErrors: evidence.serverErrors.answered,
    serverErrorsTheReferenceAnsweredBelow500: forbidden5xx.length,
    serverErrorsRefutedLive: refutedLive,
    serverErrorsUnverified: unverified
  }
  const failures = noAnswer.length + healthFailures + stateChanges.length + forbidden5xx.length + refutedLive + unverified
  return { exitCode: failures === 0 ? 0 : 1, text, counts, written: join(out, `fuzz-in-process-${pin}.json`) }
}

export const fuzzCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const pin: Pin = yield* pinOf(args)
    const count = yield* intFlag(args, "count", 5000)
    const seed = yield* intFlag(args, "seed", 1)
    const out = args.values.out
    if (out === undefined) return yield* new UsageError({ command: "fuzz", message: "fuzz needs --out DIR" })
    if (count <= 0) return yield* new UsageError({ command: "fuzz", message: `--count wants a positive integer, got ${count}` })
    const mode = args.values["upload-probes"] === true ? "upload-probes" : args.values["in-process"] === true ? "in-process" : "live"
    const referenceFile = args.values.reference
    const outcome: FuzzOutcome = mode === "live"
      ? yield* liveRun(pin, seed, count, out)
      : mode === "upload-probes"
      ? yield* Effect.tryPromise({ try: () => uploadProbes(pin, out), catch: couldNotRun })
      : yield* Effect.gen(function*() {
        // the live run's evidence says which requests the real gateway answered with a 5xx
        const reference = referenceFile === undefined
          ? undefined
          : fuzzReference(yield* readEvidenceFile(referenceFile).pipe(Effect.mapError((e) => new UsageError({ command: "fuzz", message: `--reference: ${e.message}` }))))
        return yield* Effect.tryPromise({ try: () => inProcessRun(pin, seed, count, referenceFile, reference, args.values["live-check"] === true, out), catch: couldNotRun })
      })
    // the live run's verdict is its evidence's REPORT.md; the other modes' join it as their own section
    if (mode !== "live") yield* writeReportSection(join(out, "REPORT.md"), `fuzz-${mode}`, `## oracle fuzz (${mode})\n\n${outcome.text.trimEnd()}\n\nEvidence: [${basename(outcome.written)}](${basename(outcome.written)})`)
    return {
      exitCode: outcome.exitCode,
      text: outcome.text,
      document: { command: "fuzz", mode, exitCode: outcome.exitCode, counts: outcome.counts, written: outcome.written }
    } satisfies CommandResult
  })
