/**
 * The emulator against the real gateway, side by side on one machine: the 0.19.0 pin started by
 * the oracle runner's process launcher (its fake model plays the Script) and the emulator on the
 * same pin playing the same Script, the same requests, the same client and concurrency. Load on the
 * gateway stays bounded: a few connections, a few seconds per measurement, loopback only.
 */
import { execa } from "execa"
import { mkdtempSync, rmSync } from "node:fs"
import * as net from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startGateway, type GatewayHandle } from "../packages/oracle-runner/src/index.js"
import type { Script, Turn } from "@hermetic/script"
import { type Child, repoRoot, startChild } from "./child.js"
import { fullRunFlow, type FlowResult, type HttpTarget, runFlows, streamedChatFlow } from "./flow-load.js"
import { controlCpu, procCpu, type LoadResult, type LoadTarget, runLoad } from "./load.js"
import { spread, type Spread } from "./stats.js"

export const PIN = "0.19.0"
const EMULATOR_KEY = "bench-key-0123456789abcdef"

/** The one turn both sides play, over and over: two streamed chunks and usage. */
export const TURN: Turn = { replies: [{ text: "Hello there", chunks: ["Hel", "lo there"], usage: { prompt_tokens: 12, completion_tokens: 3 } }] }
const CHAT_BODY = JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: "hi" }] })
const STREAM_BODY = JSON.stringify({ model: "hermes-agent", stream: true, messages: [{ role: "user", content: "hi" }] })
const RUN_BODY = JSON.stringify({ input: "hi" })

export interface OpSide {
  /** Answers per second (a flow — stream or whole run — counts once). */
  readonly rps: Spread
  /** 2xx answers per second (differs from rps only where the gateway answered 429). */
  readonly acceptedRps: Spread
  readonly p50Ms: Spread
  readonly p99Ms: Spread
  /** Time to the first content chunk (streams only). */
  readonly firstP50Ms?: Spread
  readonly firstP99Ms?: Spread
  /** Server CPU per answer, µs (not for flows). */
  readonly cpuMicrosPerRequest?: Spread
  /** Requests per flow (a whole run: its POST and its polls). */
  readonly requestsPerFlow?: Spread
  readonly rejectedOrFailed: number
  readonly samples: number
}

export interface GatewayRow {
  readonly name: string
  readonly kind: "request" | "flow"
  readonly emulator: OpSide
  readonly gateway: OpSide
  /** emulator ÷ gateway, on the medians of accepted answers per second. */
  readonly throughputRatio: number
  /** gateway ÷ emulator, on the median p50. */
  readonly latencyRatio: number
  readonly target?: number
}

export interface ColdStart {
  /** Spawn to the first 200 from GET /health, ms. */
  readonly emulatorMs: Spread
  readonly gatewayMs: Spread
  /** What `startGateway` costs in all (lock check, venv check, fake model, HERMES_HOME, spawn, ready). */
  readonly gatewayStartGatewayMs: Spread
  /** What the emulator CLI reports as its own start (layers + listen), after node, tsx and module loading. */
  readonly emulatorOwnStartMs: Spread
  readonly ratio: number
  readonly target: number
  readonly rounds: number
  readonly how: string
}

export interface EmulatorVsGateway {
  readonly pin: string
  readonly launcher: "process"
  readonly connections: number
  readonly seconds: number
  readonly rounds: number
  readonly rows: ReadonlyArray<GatewayRow>
  readonly coldStart: ColdStart | undefined
  readonly notes: ReadonlyArray<string>
}

interface Side {
  readonly label: "emulator" | "gateway"
  readonly http: HttpTarget
  readonly load: LoadTarget
  readonly topUp: (turns: number) => Promise<void>
  /** Waits until runs this side started in the background have settled. */
  readonly quiesce: () => Promise<void>
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

const settledRun = async (t: HttpTarget): Promise<string> => {
  const h = { authorization: `Bearer ${t.apiKey}`, "content-type": "application/json" }
  const { run_id } = (await (await fetch(`${t.baseUrl}/v1/runs`, { method: "POST", headers: h, body: RUN_BODY })).json()) as { run_id: string }
  for (let i = 0; i < 3000; i++) {
    const r = (await (await fetch(`${t.baseUrl}/v1/runs/${run_id}`, { headers: h })).json()) as { status?: string }
    if (r.status === "completed") return run_id
    if (r.status === "failed" || r.status === "cancelled") throw new Error(`seed run ${r.status} on ${t.baseUrl}`)
    await sleep(10)
  }
  throw new Error(`seed run did not settle on ${t.baseUrl}`)
}

const scriptOf = (n: number): Script => ({ turns: Array.from({ length: n }, () => TURN) })

const emulatorSide = async (child: Child): Promise<Side> => {
  const http: HttpTarget = { baseUrl: child.baseUrl, apiKey: EMULATOR_KEY }
  const topUp = async (turns: number) => {
    for (let left = turns; left > 0; left -= 2000) {
      const r = await fetch(`${child.baseUrl}/__admin/script`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hermetic-admin-key": EMULATOR_KEY },
        body: JSON.stringify(scriptOf(Math.min(2000, left)))
      })
      if (r.status >= 300) throw new Error(`emulator refused the script: ${r.status} ${await r.text()}`)
    }
  }
  await topUp(10)
  const runId = await settledRun(http)
  return { label: "emulator", http, load: { ...http, runId, cpuMicros: controlCpu(child.controlPort) }, topUp, quiesce: () => sleep(300) }
}

const gatewaySide = async (gw: GatewayHandle): Promise<Side> => {
  const http: HttpTarget = { baseUrl: gw.baseUrl, apiKey: gw.apiKey }
  const topUp = async (turns: number) => void gw.script(scriptOf(turns))
  // background runs are done when the fake model has seen no call for a while (bounded)
  const quiesce = async () => {
    const deadline = Date.now() + 60_000
    let last = -1
    while (Date.now() < deadline) {
      const n = gw.journal().length
      if (n === last) return
      last = n
      await sleep(1500)
    }
  }
  await topUp(10)
  const runId = await settledRun(http)
  return { label: "gateway", http, load: { ...http, runId, cpuMicros: procCpu(() => gw.processGroup()) }, topUp, quiesce }
}

interface Op {
  readonly name: string
  readonly kind: "request" | "flow"
  readonly target?: number
  /** Script turns one measurement may consume on this side, at most. */
  readonly turns: (side: Side, seconds: number) => number
  readonly measure: (side: Side, seconds: number, connections: number) => Promise<LoadResult | FlowResult>
}

const turnsFor = (side: Side, seconds: number, perSecond: number) => Math.ceil(seconds * (side.label === "emulator" ? perSecond : perSecond / 20))

const OPS: ReadonlyArray<Op> = [
  {
    name: "GET /v1/runs/{id}",
    kind: "request",
    target: 50,
    turns: () => 0,
    measure: (side, s, c) => runLoad({ name: "get", method: "GET", path: (id) => `/v1/runs/${id}` }, side.load, s, c)
  },
  {
    name: "POST /v1/runs",
    kind: "request",
    turns: (side, s) => turnsFor(side, s, 4000),
    measure: (side, s, c) => runLoad({ name: "post", method: "POST", path: () => "/v1/runs", body: RUN_BODY }, side.load, s, c)
  },
  {
    name: "chat completion",
    kind: "request",
    turns: (side, s) => turnsFor(side, s, 3000),
    measure: (side, s, c) => runLoad({ name: "chat", method: "POST", path: () => "/v1/chat/completions", body: CHAT_BODY }, side.load, s, c)
  },
  {
    name: "chat completion, streamed",
    kind: "flow",
    turns: (side, s) => turnsFor(side, s, 3000),
    measure: (side, s, c) => runFlows(streamedChatFlow(side.http, STREAM_BODY), { workers: c, seconds: s })
  },
  {
    name: "full run (POST, poll until completed)",
    kind: "flow",
    target: 100,
    turns: (side, s) => turnsFor(side, s, 3000),
    measure: (side, s, c) => runFlows(fullRunFlow(side.http, RUN_BODY), { workers: c, seconds: s })
  }
]

const isLoad = (r: LoadResult | FlowResult): r is LoadResult => "requestsPerSecond" in r

const summarize = (rs: ReadonlyArray<LoadResult | FlowResult>): OpSide => {
  const loads = rs.filter(isLoad)
  const flows = rs.filter((r): r is FlowResult => !isLoad(r))
  if (loads.length > 0) {
    return {
      rps: spread(loads.map((r) => r.requestsPerSecond)),
      acceptedRps: spread(loads.map((r) => r.acceptedPerSecond)),
      p50Ms: spread(loads.map((r) => r.p50Ms)),
      p99Ms: spread(loads.map((r) => r.p99Ms)),
      cpuMicrosPerRequest: spread(loads.map((r) => r.cpuMicrosPerRequest)),
      rejectedOrFailed: loads.reduce((n, r) => n + r.errors, 0),
      samples: loads.reduce((n, r) => n + r.requests, 0)
    }
  }
  const firsts = flows.flatMap((r) => (r.firstP50Ms === undefined ? [] : [r]))
  return {
    rps: spread(flows.map((r) => r.flowsPerSecond)),
    acceptedRps: spread(flows.map((r) => r.flowsPerSecond)),
    p50Ms: spread(flows.map((r) => r.p50Ms)),
    p99Ms: spread(flows.map((r) => r.p99Ms)),
    ...(firsts.length === 0
      ? {}
      : { firstP50Ms: spread(firsts.map((r) => r.firstP50Ms ?? 0)), firstP99Ms: spread(firsts.map((r) => r.firstP99Ms ?? 0)) }),
    requestsPerFlow: spread(flows.map((r) => r.requestsPerFlow)),
    rejectedOrFailed: flows.reduce((n, r) => n + r.failures, 0),
    samples: flows.reduce((n, r) => n + r.flows, 0)
  }
}

const describe = (r: LoadResult | FlowResult): string =>
  isLoad(r)
    ? `${r.acceptedPerSecond.toFixed(1)} ok/s (${r.requests} answers, ${r.errors} non-2xx), p50 ${r.p50Ms.toFixed(2)} ms, ${r.cpuMicrosPerRequest.toFixed(0)} µs CPU/req`
    : `${r.flowsPerSecond.toFixed(1)}/s (${r.flows} ok, ${r.failures} failed), p50 ${r.p50Ms.toFixed(2)} ms${r.firstP50Ms === undefined ? "" : `, first chunk p50 ${r.firstP50Ms.toFixed(2)} ms`}`

export const emulatorVsGateway = async (opts: {
  readonly rounds: number
  readonly seconds: number
  readonly warmupSeconds: number
  readonly connections: number
  readonly coldStartRounds: number
  readonly log: (s: string) => void
}): Promise<EmulatorVsGateway> => {
  const notes: Array<string> = []
  opts.log(`  starting the real ${PIN} gateway (oracle runner, process launcher) …`)
  const gw = await startGateway({ pin: PIN, launcher: "process", progress: (m) => opts.log(`    runner: ${m}`) })
  let child: Child | undefined
  const rows: Array<GatewayRow> = []
  try {
    // the emulator as the gateway runs: same pin, the default concurrency cap (10) like the runner's config
    child = await startChild("bench/servers/emulator.ts", ["--pin", PIN, "--max-concurrent-runs", "10"])
    const emulator = await emulatorSide(child)
    const gateway = await gatewaySide(gw)
    for (const op of OPS) {
      const results: Record<Side["label"], Array<LoadResult | FlowResult>> = { emulator: [], gateway: [] }
      for (let round = 0; round < opts.rounds; round++) {
        const order = round % 2 === 0 ? [emulator, gateway] : [gateway, emulator]
        for (const side of order) {
          await side.topUp(op.turns(side, opts.seconds + opts.warmupSeconds))
          if (round === 0 && opts.warmupSeconds > 0) {
            await op.measure(side, opts.warmupSeconds, opts.connections)
            await side.quiesce()
          }
          const r = await op.measure(side, opts.seconds, opts.connections)
          await side.quiesce()
          results[side.label].push(r)
          opts.log(`  ${op.name} round ${round + 1}/${opts.rounds} ${side.label}: ${describe(r)}`)
        }
      }
      const e = summarize(results.emulator)
      const g = summarize(results.gateway)
      rows.push({
        name: op.name,
        kind: op.kind,
        emulator: e,
        gateway: g,
        throughputRatio: g.acceptedRps.median === 0 ? Number.POSITIVE_INFINITY : e.acceptedRps.median / g.acceptedRps.median,
        latencyRatio: e.p50Ms.median === 0 ? Number.POSITIVE_INFINITY : g.p50Ms.median / e.p50Ms.median,
        ...(op.target === undefined ? {} : { target: op.target })
      })
    }
    const post = rows.find((r) => r.name === "POST /v1/runs")
    if (post !== undefined && post.gateway.rejectedOrFailed > 0) {
      notes.push(
        `POST /v1/runs: the gateway answered ${post.gateway.rejectedOrFailed} of ${post.gateway.samples} POSTs with 429 ` +
          "(max_concurrent_runs 10: each accepted run keeps its agent busy for tens of ms); the ratio uses 2xx answers per second."
      )
    }
  } finally {
    await child?.stop()
    await gw.stop()
  }
  const coldStart = opts.coldStartRounds > 0 ? await coldStarts(opts.coldStartRounds, opts.log) : undefined
  return { pin: PIN, launcher: "process", connections: opts.connections, seconds: opts.seconds, rounds: opts.rounds, rows, coldStart, notes }
}

// ---------------------------------------------------------------------------------------------
// Cold start: process spawn to the first answer of GET /health, polled every 5 ms by this process.

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })

const firstHealth = async (baseUrl: string, deadlineMs: number): Promise<number> => {
  while (performance.now() < deadlineMs) {
    try {
      const r = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(1000) })
      await r.arrayBuffer()
      if (r.status === 200) return performance.now()
    } catch {
      // not listening yet
    }
    await sleep(5)
  }
  throw new Error(`${baseUrl}/health did not answer in time`)
}

const emulatorColdStart = async (): Promise<{ ms: number; ownStartMs: number | undefined }> => {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), "hermetic-cold-"))
  const t0 = performance.now()
  const proc = execa(
    "node",
    ["packages/emulator/bin/hermes-emulator.cjs", "serve", "--port", String(port), "--data-dir", dataDir, "--hermes-version", PIN, "--api-key", EMULATOR_KEY],
    { cwd: repoRoot, reject: false, stdin: "ignore" }
  )
  let ownStartMs: number | undefined
  // the CLI's own "ready in N ms": building the layers and listening, after its modules loaded
  proc.stdout?.on("data", (c: Buffer) => {
    const m = /ready in (\d+) ms/.exec(c.toString("utf8"))
    if (m?.[1] !== undefined) ownStartMs = Number(m[1])
  })
  try {
    const ms = (await firstHealth(`http://127.0.0.1:${port}`, t0 + 60_000)) - t0
    return { ms, ownStartMs }
  } finally {
    proc.kill("SIGTERM")
    await Promise.race([proc, sleep(5000)])
    proc.kill("SIGKILL")
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const gatewayColdStart = async (): Promise<{ spawnToAnswer: number; total: number }> => {
  let spawnedAt: number | undefined
  let answered: Promise<number> | undefined
  const t0 = performance.now()
  const gw = await startGateway({
    pin: PIN,
    launcher: "process",
    progress: (m) => {
      // "starting hermes 0.19.0 gateway (process) on 127.0.0.1:PORT": spawned right after this line
      const port = /on 127\.0\.0\.1:(\d+)/.exec(m)?.[1]
      if (m.startsWith("starting hermes") && port !== undefined) {
        spawnedAt = performance.now()
        answered = firstHealth(`http://127.0.0.1:${port}`, spawnedAt + 180_000)
      }
    }
  })
  const total = performance.now() - t0
  try {
    if (spawnedAt === undefined || answered === undefined) throw new Error("the runner did not report the gateway's port")
    return { spawnToAnswer: (await answered) - spawnedAt, total }
  } finally {
    // no graceful shutdown needed for a throwaway gateway: kill its process group, then clean up
    const pgid = gw.processGroup()
    if (pgid !== null) {
      try {
        process.kill(-pgid, "SIGKILL")
      } catch {
        // already gone
      }
    }
    await gw.stop()
  }
}

const coldStarts = async (rounds: number, log: (s: string) => void): Promise<ColdStart> => {
  const emu: Array<number> = []
  const own: Array<number> = []
  const gws: Array<number> = []
  const totals: Array<number> = []
  for (let round = 0; round < rounds; round++) {
    const { ms: e, ownStartMs } = await emulatorColdStart()
    emu.push(e)
    if (ownStartMs !== undefined) own.push(ownStartMs)
    const g = await gatewayColdStart()
    gws.push(g.spawnToAnswer)
    totals.push(g.total)
    log(`  cold start round ${round + 1}/${rounds}: emulator ${e.toFixed(0)} ms (its own start ${String(ownStartMs)} ms), gateway ${g.spawnToAnswer.toFixed(0)} ms (startGateway ${g.total.toFixed(0)} ms)`)
  }
  const emulatorMs = spread(emu)
  const gatewayMs = spread(gws)
  return {
    emulatorMs,
    gatewayMs,
    gatewayStartGatewayMs: spread(totals),
    emulatorOwnStartMs: spread(own),
    ratio: gatewayMs.median / emulatorMs.median,
    target: 20,
    rounds,
    how:
      "spawn to the first 200 of GET /health, polled every 5 ms: `node packages/emulator/bin/hermes-emulator.cjs serve --data-dir <fresh>` " +
      `(the CLI's bin: its esbuild bundle, or tsx where the sources are newer) vs \`hermes gateway run\` spawned by the oracle runner (venv cached, fresh HERMES_HOME, pin ${PIN})`
  }
}
