/**
 * `oracle wire`: the raw-socket comparison. A sample of scenarios is played on the real gateway and
 * on the emulator over a socket, every request written as the same HTTP/1.1 bytes on both sides
 * (same Host, key, headers in the same order, one request per connection), and each answer's head
 * is compared as it came: the status line with its reason phrase, the header names in wire order
 * with their casing, and the framing (Content-Length, chunked, or delimited by the close). The
 * scenario comparison (`oracle compare`) cannot see these: fetch lower-cases and sorts headers and
 * decodes the framing.
 *
 *   oracle wire [--scenario FILE ...] [--pin 0.19.0] --out DIR
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { startEmulator } from "@hermetic/emulator"
import { FileSystem, Path } from "@effect/platform"
import { Effect } from "effect"
import { type ParsedArgs, pinOf } from "../cli/args.js"
import { loadScenarioFiles } from "../cli/loadInputs.js"
import { builtinScenarioDir } from "../scenario/ScenarioFile.js"
import type { CommandResult } from "../cli/OracleDocument.js"
import { progress } from "../cli/progress.js"
import { repoRoot } from "../evidence/provenance.js"
import { writeReportSection } from "../evidence/reportSection.js"
import { runScenario } from "../runner/runScenario.js"
import { emulatorDriver } from "../target/emulatorDriver.js"
import { gatewayDriver } from "../target/GatewayTarget.js"
import { fetchEffect, type LiveDriver } from "../target/LiveDriver.js"
import { liveTarget } from "../target/liveTarget.js"
import { loadOracleRunner } from "../target/oracleRunner.js"
import { type RawHead, rawFetch } from "../rawHttp/rawFetch.js"

/** The default sample: one scenario file per family of answers (JSON, SSE, errors, 413, 503, CORS, jobs, sessions). */
export const WIRE_SAMPLE = [
  "health.json",
  "discovery.json",
  "chat-completions.json",
  "responses-stream.json",
  "runs-held-events.json",
  "runs-not-found.json",
  "runs-validation.json",
  "sessions.json",
  "jobs.json",
  "http-cors-preflight-and-profile-prefix.json",
  "http-body-limit-413.json",
  "http-draining-503.json"
]

export interface WirePair {
  readonly scenario: string
  readonly request: string
  readonly sameRequestBytes: boolean
  readonly real: RawHead
  readonly emulator: RawHead
  readonly differences: ReadonlyArray<string>
}

/** What differs between two heads, in words; empty when they agree on everything compared. */
export const compareHeads = (real: RawHead, emulator: RawHead): Array<string> => {
  const out: Array<string> = []
  if (real.statusLine !== emulator.statusLine) out.push(`status line: ${JSON.stringify(real.statusLine)} vs ${JSON.stringify(emulator.statusLine)}`)
  if (real.framing !== emulator.framing) out.push(`framing: ${real.framing} vs ${emulator.framing}`)
  const a = real.headerNames.join(", ")
  const b = emulator.headerNames.join(", ")
  if (a !== b) {
    const lower = (xs: ReadonlyArray<string>) => xs.map((x) => x.toLowerCase()).join(", ")
    if (lower(real.headerNames) === lower(emulator.headerNames)) out.push(`header-name casing: [${a}] vs [${b}]`)
    else out.push(`header names/order: [${a}] vs [${b}]`)
  }
  return out
}

/**
 * `until` polls send the same request until it settles, as often as each side needs: a run of
 * identical consecutive requests counts once (its last answer), so the two sides pair up.
 */
export const collapsePolls = (heads: ReadonlyArray<RawHead>): Array<RawHead> =>
  heads.filter((h, i) => i === heads.length - 1 || heads[i + 1]?.requestHead !== h.requestHead || heads[i + 1]?.requestBodyBytes !== h.requestBodyBytes)

/** A request head with server-made ids and per-play nonces (runs of 8+ hex digits) masked. */
const maskIds = (head: string) => head.replace(/[0-9a-f]{8,}/g, "<id>")

const recording = (heads: Array<RawHead>, base: string) => (path: string, init: RequestInit) =>
  fetchEffect((url, i) => rawFetch(url, i, (h) => heads.push(h)), `${base}${path}`, init)

export const wireCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const pin = yield* pinOf(args)
    const { scopedGateway } = yield* loadOracleRunner("oracle wire")
    const out = args.values.out ?? join(repoRoot(), "evidence", "wire")
    const files = args.values.scenario ?? WIRE_SAMPLE.map((f) => `${builtinScenarioDir()}${f}`)
    const inputs = yield* loadScenarioFiles(files, "strict")
    progress(`wire: starting the real ${pin} gateway…`)
    const gw = yield* scopedGateway({ pin, launcher: "process", clock: {}, progress: (l) => progress(`gateway: ${l}`) })
    const fs = yield* FileSystem.FileSystem
    const configFile = (yield* Path.Path).join(gw.hermesHome, "config.yaml")
    const pristineConfig = yield* Effect.orDie(fs.readFileString(configFile))
    // the emulator takes the gateway's key, so the Authorization bytes are the same on both sides
    const emu = yield* Effect.acquireRelease(
      Effect.promise(() => startEmulator({ hermesVersion: pin, apiKey: gw.apiKey, port: 0 })),
      (e) => Effect.promise(() => e.close())
    )
    const pairs: Array<WirePair> = []
    const unpaired: Array<{ scenario: string; real: number; emulator: number }> = []
    for (const input of inputs) {
      const scenario = input.scenario
      const emuHeads: Array<RawHead> = []
      const realHeads: Array<RawHead> = []
      const emuBase = emulatorDriver({ fetch: (u, i) => fetch(u, i), baseUrl: emu.url, apiKey: gw.apiKey, pollIntervalMs: 10, sseDeadlineMs: 5_000 })
      // both sides get the emulator's namespace header (the gateway ignores it) and Connection: close
      const hidden = () => ({ connection: "close", ...emuBase.hiddenHeaders() })
      const emuDriver: LiveDriver = { ...emuBase, fetch: recording(emuHeads, emu.url), hiddenHeaders: hidden }
      const realDriver: LiveDriver = { ...gatewayDriver(gw, fs, configFile, pristineConfig), fetch: recording(realHeads, gw.baseUrl), hiddenHeaders: hidden }
      const info = (real: boolean) => ({ kind: real ? ("gateway-process" as const) : ("emulator-http" as const), pin, real, clock: "running" as const, description: "" })
      // the emulator first: its begin() opens the namespace both sides then carry
      yield* runScenario(liveTarget(info(false), emuDriver), scenario)
      yield* runScenario(liveTarget(info(true), realDriver), scenario)
      const realPaired = collapsePolls(realHeads)
      const emuPaired = collapsePolls(emuHeads)
      if (realPaired.length !== emuPaired.length) {
        unpaired.push({ scenario: scenario.name, real: realPaired.length, emulator: emuPaired.length })
        progress(`wire: ${scenario.name}: ${realPaired.length} vs ${emuPaired.length} requests: not paired`)
        continue
      }
      realPaired.forEach((real, i) => {
        const emulator = emuPaired[i] as RawHead
        pairs.push({
          scenario: scenario.name,
          request: real.requestHead.split("\r\n")[0] ?? "",
          sameRequestBytes: real.requestHead === emulator.requestHead && real.requestBodyBytes === emulator.requestBodyBytes,
          real,
          emulator,
          differences: compareHeads(real, emulator)
        })
      })
      progress(`wire: ${scenario.name}: ${realPaired.length} exchanges, ${pairs.filter((p) => p.scenario === scenario.name && p.differences.length > 0).length} with head differences`)
    }
    const differing = pairs.filter((p) => p.differences.length > 0)
    const kinds = new Map<string, number>()
    for (const p of differing) for (const d of p.differences) kinds.set(d, (kinds.get(d) ?? 0) + 1)
    const evidence = {
      kind: "hermetic-wire",
      pin,
      reference: `real Hermes ${pin} gateway (process launcher)`,
      candidate: `emulator ${pin} over HTTP (node:http)`,
      compared: ["status line (version, code, reason phrase)", "header names in wire order with casing", "framing: content-length | chunked | close | none"],
      scenarios: inputs.length,
      exchanges: pairs.length,
      sameRequestBytes: pairs.filter((p) => p.sameRequestBytes).length,
      /** The others differ only in server-made ids or per-play nonces (the two sides' own ids in paths and keys). */
      sameRequestBytesButIds: pairs.filter((p) => !p.sameRequestBytes && maskIds(p.real.requestHead) === maskIds(p.emulator.requestHead)).length,
      equal: pairs.length - differing.length,
      differing: differing.length,
      unpaired,
      differences: [...kinds.entries()].sort((a, b) => b[1] - a[1]).map(([what, count]) => ({ what, count })),
      pairs
    }
    mkdirSync(out, { recursive: true })
    const file = join(out, `wire-${pin}.json`)
    writeFileSync(file, `${JSON.stringify(evidence, null, 2)}\n`)
    const md = [
      `# Raw-socket comparison, ${pin}: real gateway vs emulator over HTTP`,
      "",
      `${evidence.scenarios} scenarios, ${evidence.exchanges} exchanges (request heads byte-identical in ${evidence.sameRequestBytes}; in ${evidence.sameRequestBytesButIds} more they differ only in server-made ids or per-play nonces): **${evidence.equal} equal, ${evidence.differing} differing**; ${unpaired.length} scenarios not paired.`,
      "",
      "Compared: " + evidence.compared.join("; ") + ".",
      "",
      ...(evidence.differences.length === 0 ? ["No head differences."] : ["| difference | exchanges |", "| --- | --- |", ...evidence.differences.map((d) => `| ${d.what.replace(/\|/g, "\\|")} | ${d.count} |`)]),
      ""
    ].join("\n")
    writeFileSync(join(out, `wire-${pin}.md`), md)
    // the verdict joins the REPORT.md of --out as its own section, beside a comparison's
    yield* writeReportSection(join(out, "REPORT.md"), "wire", `${md.replace(/^# /, "## ")}\nEvidence: [wire-${pin}.json](wire-${pin}.json)`)
    return { exitCode: differing.length === 0 && unpaired.length === 0 ? 0 : 1, text: `${md}\nevidence: ${file}\n` } satisfies CommandResult
  })
