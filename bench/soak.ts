/**
 * The soak of `npm run reliability -- --soak`: the bundled CLI (bench/cliProcess.ts) with a data
 * dir, loaded open-loop at a steady rate for N minutes over a mix of every list and read route and
 * the writes that feed them (chat, chat stream, runs with their SSE events, session create + chat,
 * responses). Each minute it reports the requests sent, the errors, p50/p99 latency (a request's
 * start to the end of its body or stream) and the emulator's RSS, with the load average it was
 * taken under. Targets: 0 errors, RSS drift ≤ 10 % after warm-up, p99 ≤ 20 ms in every minute
 * after warm-up.
 */
import { readFileSync } from "node:fs"
import * as http from "node:http"
import { loadavg } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort, percentile, rssKiB, startBundledServe, stopEmu } from "./cliProcess.js"

export const SOAK_DEFAULTS = { minutes: 10, rate: 200, warmupMinutes: 2 } as const
const SOAK_TARGETS = { errors: 0, rssDriftPercent: 10, p99Ms: 20 } as const

const KEY = "soak-key-0123456789abcdef01234567"
const H = { authorization: `Bearer ${KEY}`, "content-type": "application/json" }
// in flight at once at most: past it a tick's request is counted as dropped, so a stalled server shows
const MAX_IN_FLIGHT = 256

/** What the reads pick from: ids the writes made (the newest few hundred of each kind). */
export interface Pools {
  readonly sessions: Array<string>
  readonly jobs: Array<string>
  readonly runs: Array<string>
  readonly responses: Array<string>
}

export type Call = (base: string, pools: Pools) => Promise<void>

class SoakFailure extends Error {}

const pick = (xs: ReadonlyArray<string>, fallback: string): string => xs[Math.floor(Math.random() * xs.length)] ?? fallback
const keep = (xs: Array<string>, id: string, newest = 500) => {
  xs.push(id)
  if (xs.length > newest) xs.shift()
}

// node:http with kept-alive sockets: lighter on the shared CPU than fetch, so the client steals less from the server
const agent = new http.Agent({ keepAlive: true, maxSockets: 128 })

/** Sends a request and reads its whole body; anything but `expect` is an error. */
const call = (url: string, init: { readonly method?: string; readonly body?: string }, expect: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? "GET", headers: H, agent }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("error", reject)
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        if (res.statusCode !== expect) reject(new SoakFailure(`${init.method ?? "GET"} ${new URL(url).pathname} → ${res.statusCode}: ${text.slice(0, 200)}`))
        else resolve(text)
      })
    })
    req.on("error", reject)
    req.end(init.body)
  })

const get = (path: string): Call => async (base) => void (await call(`${base}${path}`, {}, 200))
const getId = (path: (p: Pools) => string): Call => async (base, pools) => void (await call(`${base}${path(pools)}`, {}, 200))
const post = (url: string, body: unknown, expect: number) => call(url, { method: "POST", body: JSON.stringify(body) }, expect)

/** The mix: route name, weight (share of the rate) and the call. Every list and read route is in it. */
export const MIX: ReadonlyArray<readonly [string, number, Call]> = [
  ["GET /health", 6, get("/health")],
  ["GET /v1/health", 2, get("/v1/health")],
  ["GET /health/detailed", 3, get("/health/detailed")],
  ["GET /v1/models", 6, get("/v1/models")],
  ["GET /v1/capabilities", 5, get("/v1/capabilities")],
  ["GET /v1/skills", 3, get("/v1/skills")],
  ["GET /v1/toolsets", 3, get("/v1/toolsets")],
  ["GET /api/model/options", 2, get("/api/model/options")],
  ["GET /api/sessions", 8, get("/api/sessions?limit=20")],
  ["GET /api/sessions/{id}", 7, getId((p) => `/api/sessions/${pick(p.sessions, "missing")}`)],
  ["GET /api/sessions/{id}/messages", 7, getId((p) => `/api/sessions/${pick(p.sessions, "missing")}/messages`)],
  ["GET /api/jobs", 5, get("/api/jobs")],
  ["GET /api/jobs/{id}", 5, getId((p) => `/api/jobs/${pick(p.jobs, "missing")}`)],
  ["GET /v1/runs/{id}", 6, getId((p) => `/v1/runs/${pick(p.runs, "missing")}`)],
  ["GET /v1/responses/{id}", 5, getId((p) => `/v1/responses/${pick(p.responses, "missing")}`)],
  [
    "POST /v1/chat/completions",
    6,
    async (base) => void (await post(`${base}/v1/chat/completions`, { model: "hermes-agent", messages: [{ role: "user", content: "soak" }] }, 200))
  ],
  [
    "POST /v1/chat/completions (stream)",
    5,
    async (base) => {
      const text = await post(`${base}/v1/chat/completions`, { model: "hermes-agent", stream: true, messages: [{ role: "user", content: "soak" }] }, 200)
      if (!text.includes("data: [DONE]")) throw new SoakFailure("chat stream ended without [DONE]")
    }
  ],
  [
    "POST /v1/runs + GET /v1/runs/{id}/events",
    6,
    async (base, pools) => {
      const { run_id } = JSON.parse(await post(`${base}/v1/runs`, { input: "soak" }, 202)) as { run_id: string }
      const events = await call(`${base}/v1/runs/${run_id}/events`, {}, 200)
      if (!events.includes("run.completed")) throw new SoakFailure(`run ${run_id}: events ended without run.completed`)
      keep(pools.runs, run_id)
    }
  ],
  [
    "POST /api/sessions + POST /api/sessions/{id}/chat",
    6,
    async (base, pools) => {
      const { session } = JSON.parse(await post(`${base}/api/sessions`, {}, 201)) as { session: { id: string } }
      await post(`${base}/api/sessions/${session.id}/chat`, { message: "soak" }, 200)
      keep(pools.sessions, session.id)
    }
  ],
  [
    "POST /v1/responses",
    2,
    async (base, pools) => {
      const { id } = JSON.parse(await post(`${base}/v1/responses`, { model: "hermes-agent", input: "soak" }, 200)) as { id: string }
      // the store keeps the 100 most recently read or written responses (an LRU), runs' included:
      // reads among the newest 10 find theirs (three runs per create leave ~40 newer entries)
      keep(pools.responses, id, 10)
    }
  ]
]

/** Ids for the reads to find from the first second: a few sessions, jobs, runs and responses. */
export const seed = async (base: string, pools: Pools) => {
  for (let i = 0; i < 20; i++) {
    for (const name of ["POST /v1/runs + GET /v1/runs/{id}/events", "POST /api/sessions + POST /api/sessions/{id}/chat", "POST /v1/responses"]) {
      await (MIX.find(([n]) => n === name)?.[2] as Call)(base, pools)
    }
    const { job } = JSON.parse(await post(`${base}/api/jobs`, { name: `soak-${i}`, schedule: "every 1h", prompt: "soak" }, 200)) as { job: { id: string } }
    keep(pools.jobs, job.id)
  }
}

export interface SoakMinute {
  readonly minute: number
  readonly sent: number
  readonly errors: number
  readonly dropped: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
  readonly rssMiB: number
  readonly rssMaxMiB: number
  /** CPU seconds the emulator process used in the minute (user + system). */
  readonly emulatorCpuS: number
  /** CPU seconds the soak's own client used in the minute. */
  readonly clientCpuS: number
  /** CPU seconds the rest of the machine used in the minute (all busy time less the emulator's and the client's): what competed. */
  readonly otherCpuS: number
  readonly loadAverage: ReadonlyArray<number>
}

export interface SoakResult {
  readonly at: string
  readonly cli: string
  readonly minutes: number
  readonly ratePerSecond: number
  readonly warmupMinutes: number
  readonly perMinute: ReadonlyArray<SoakMinute>
  readonly routes: ReadonlyArray<{ readonly route: string; readonly sent: number; readonly errors: number; readonly p50Ms: number; readonly p99Ms: number }>
  readonly errorSamples: ReadonlyArray<string>
  readonly verdict: {
    readonly errors: number
    /** Operations not sent because MAX_IN_FLIGHT were still unanswered: the rate was not sustained. */
    readonly dropped: number
    readonly rssAfterWarmupMiB: number
    readonly rssEndMiB: number
    readonly rssDriftPercent: number
    readonly worstP99AfterWarmupMs: number
    readonly met: { readonly errors: boolean; readonly rate: boolean; readonly rssDrift: boolean; readonly p99: boolean }
  }
}

/** CPU seconds used so far by a process (Linux /proc; clock ticks at 100 Hz). */
const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** Busy CPU seconds of the whole machine so far (Linux /proc/stat: all but idle and iowait). */
const machineBusySeconds = (): number => {
  const [, user, nice, system, , , irq, softirq, steal] = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).map(Number)
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / 100
}
const clientSeconds = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits))
const loadNow = () => loadavg().map((l) => round(l, 2))

// preloaded into the emulator with --soak-trace: where its event loop blocks (bench/tools/stall-trace.ts)
const STALL_TRACE = fileURLToPath(new URL("./tools/stall-trace.ts", import.meta.url))

export const runSoak = async (options: {
  readonly minutes: number
  readonly rate: number
  readonly warmupMinutes: number
  readonly dataDir: string
  readonly log: (s: string) => void
  /** Where the emulator writes its event-loop blocks, slow statements and GC pauses (JSON), if anywhere. */
  readonly trace?: string
}): Promise<SoakResult> => {
  const trace = options.trace === undefined ? {} : { nodeArgs: ["--require", STALL_TRACE], env: { HERMETIC_STALL_TRACE: options.trace } }
  const e = await startBundledServe(await freePort(), ["--data-dir", join(options.dataDir, "soak"), "--api-key", KEY, "--max-concurrent-runs", "0"], trace)
  const pid = e.proc.pid as number
  const pools: Pools = { sessions: [], jobs: [], runs: [], responses: [] }
  try {
    await seed(e.url, pools)
    const totalWeight = MIX.reduce((n, [, w]) => n + w, 0)
    // a fixed, interleaved schedule of the mix: every second sends the same shares
    const schedule = MIX.flatMap(([, w], i) => Array.from({ length: w }, (_, k) => ({ i, at: (k + 0.5) / w }))).sort((a, b) => a.at - b.at).map((x) => x.i)
    const routeMs = MIX.map(() => [] as Array<number>)
    const routeErrors = MIX.map(() => 0)
    const errorSamples: Array<string> = []
    const perMinute: Array<SoakMinute> = []
    let minuteMs: Array<number> = []
    let minuteErrors = 0
    let minuteSent = 0
    let minuteDropped = 0
    let rssSamples: Array<number> = []
    let inFlight = 0
    const send = (i: number) => {
      if (inFlight >= MAX_IN_FLIGHT) {
        minuteDropped++
        return
      }
      inFlight++
      minuteSent++
      const [, , fn] = MIX[i] as readonly [string, number, Call]
      const t = performance.now()
      fn(e.url, pools).then(
        () => {
          const ms = performance.now() - t
          minuteMs.push(ms)
          routeMs[i]?.push(ms)
        },
        (err: unknown) => {
          minuteErrors++
          routeErrors[i] = (routeErrors[i] ?? 0) + 1
          if (errorSamples.length < 20) errorSamples.push(String(err instanceof Error ? err.message : err))
        }
      ).finally(() => inFlight--)
    }
    const started = performance.now()
    const end = started + options.minutes * 60_000
    let due = 0
    let next = 0
    const rssTimer = setInterval(() => rssSamples.push(rssKiB(pid) / 1024), 1000)
    let minuteEnd = started + 60_000
    let cpuAtMinuteStart = cpuSeconds(pid)
    let clientAtMinuteStart = clientSeconds()
    let machineAtMinuteStart = machineBusySeconds()
    const closeMinute = () => {
      const rss = rssKiB(pid) / 1024
      const cpu = cpuSeconds(pid)
      const client = clientSeconds()
      const machine = machineBusySeconds()
      const m: SoakMinute = {
        minute: perMinute.length + 1,
        sent: minuteSent,
        errors: minuteErrors,
        dropped: minuteDropped,
        p50Ms: round(percentile(minuteMs, 50), 2),
        p99Ms: round(percentile(minuteMs, 99), 2),
        maxMs: round(Math.max(0, ...minuteMs), 1),
        rssMiB: round(rss),
        rssMaxMiB: round(Math.max(rss, ...rssSamples)),
        emulatorCpuS: round(cpu - cpuAtMinuteStart),
        clientCpuS: round(client - clientAtMinuteStart),
        otherCpuS: round(Math.max(0, machine - machineAtMinuteStart - (cpu - cpuAtMinuteStart) - (client - clientAtMinuteStart))),
        loadAverage: loadNow()
      }
      perMinute.push(m)
      options.log(`soak: minute ${m.minute}: ${m.sent} sent, ${m.errors} errors, ${m.dropped} dropped, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, RSS ${m.rssMiB} MiB, emulator CPU ${m.emulatorCpuS} s, client ${m.clientCpuS} s, the rest of the machine ${m.otherCpuS} s, load ${m.loadAverage.join(" ")}`)
      minuteMs = []
      minuteErrors = 0
      minuteSent = 0
      minuteDropped = 0
      rssSamples = []
      cpuAtMinuteStart = cpu
      clientAtMinuteStart = client
      machineAtMinuteStart = machine
    }
    options.log(`soak: ${options.minutes} min at ${options.rate} req/s on ${e.url} (pid ${pid}); mix weight ${totalWeight}`)
    while (performance.now() < end) {
      // open loop: as many requests as the clock says are due, whatever the answers' pace
      const now = performance.now()
      const target = Math.floor(((now - started) / 1000) * options.rate)
      for (; due < target; due++) send(schedule[next++ % schedule.length] as number)
      if (now >= minuteEnd) {
        closeMinute()
        minuteEnd += 60_000
      }
      await new Promise((r) => setTimeout(r, 2))
    }
    clearInterval(rssTimer)
    // the last minute's requests still in flight end in it
    while (inFlight > 0) await new Promise((r) => setTimeout(r, 10))
    if (minuteSent > 0 || minuteDropped > 0) closeMinute()
    const errors = perMinute.reduce((n, m) => n + m.errors, 0)
    const dropped = perMinute.reduce((n, m) => n + m.dropped, 0)
    const afterWarmup = perMinute.filter((m) => m.minute > options.warmupMinutes)
    const baseline = perMinute[options.warmupMinutes - 1]?.rssMiB ?? perMinute[0]?.rssMiB ?? 0
    const rssEnd = perMinute[perMinute.length - 1]?.rssMiB ?? 0
    const drift = baseline === 0 ? 0 : round(((Math.max(rssEnd, ...afterWarmup.map((m) => m.rssMaxMiB)) - baseline) / baseline) * 100)
    const worstP99 = Math.max(0, ...afterWarmup.map((m) => m.p99Ms))
    return {
      at: new Date().toISOString(),
      cli: "packages/emulator/dist/hermes-emulator-launcher.cjs serve --data-dir DIR --max-concurrent-runs 0 (the bundle)",
      minutes: options.minutes,
      ratePerSecond: options.rate,
      warmupMinutes: options.warmupMinutes,
      perMinute,
      routes: MIX.map(([route], i) => ({
        route,
        sent: (routeMs[i]?.length ?? 0) + (routeErrors[i] ?? 0),
        errors: routeErrors[i] ?? 0,
        p50Ms: round(percentile(routeMs[i] ?? [], 50), 2),
        p99Ms: round(percentile(routeMs[i] ?? [], 99), 2)
      })),
      errorSamples,
      verdict: {
        errors,
        dropped,
        rssAfterWarmupMiB: baseline,
        rssEndMiB: rssEnd,
        rssDriftPercent: drift,
        worstP99AfterWarmupMs: worstP99,
        met: { errors: errors <= SOAK_TARGETS.errors, rate: dropped === 0, rssDrift: drift <= SOAK_TARGETS.rssDriftPercent, p99: worstP99 <= SOAK_TARGETS.p99Ms }
      }
    }
  } finally {
    await stopEmu(e)
  }
}

const yes = (ok: boolean) => (ok ? "met" : "**not met**")

export const renderSoak = (r: SoakResult): string =>
  [
    "## Soak",
    "",
    `Measured by \`npm run reliability -- --soak --soak-minutes ${r.minutes}\` (bench/soak.ts) on ${r.at}: ${r.cli}, ` +
      `${r.ratePerSecond} operations/s open loop for ${r.minutes} min over every list and read route and the writes that feed them ` +
      `(an operation is one request, or two for run + events and session create + chat); ` +
      `the client runs on the same 2-core machine, shared with other work (per minute below: the CPU the emulator, the client and every other process used, of 120 s, and the load average). Warm-up: the first ${r.warmupMinutes} min.`,
    "",
    `Verdict: **${r.verdict.errors} errors** (target ${SOAK_TARGETS.errors}: ${yes(r.verdict.met.errors)}); ` +
      `**${r.verdict.dropped} operations dropped** (not sent while ${MAX_IN_FLIGHT} were unanswered; target 0, the rate sustained: ${yes(r.verdict.met.rate)}); ` +
      `RSS ${r.verdict.rssAfterWarmupMiB} MiB after warm-up, ${r.verdict.rssEndMiB} MiB at the end, **drift ${r.verdict.rssDriftPercent} %** (highest after warm-up against the warm-up's end; target ≤ ${SOAK_TARGETS.rssDriftPercent} %: ${yes(r.verdict.met.rssDrift)}); ` +
      `**worst minute p99 ${r.verdict.worstP99AfterWarmupMs} ms** after warm-up (target ≤ ${SOAK_TARGETS.p99Ms} ms: ${yes(r.verdict.met.p99)}).`,
    "",
    "| minute | sent | errors | dropped | p50 ms | p99 ms | max ms | RSS MiB (end) | RSS MiB (max) | emulator CPU s | client CPU s | other processes' CPU s | load average 1/5/15 |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...r.perMinute.map((m) => `| ${m.minute} | ${m.sent} | ${m.errors} | ${m.dropped} | ${m.p50Ms} | ${m.p99Ms} | ${m.maxMs} | ${m.rssMiB} | ${m.rssMaxMiB} | ${m.emulatorCpuS} | ${m.clientCpuS} | ${m.otherCpuS} | ${m.loadAverage.join(" / ")} |`),
    "",
    "| route (whole run) | requests | errors | p50 ms | p99 ms |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...r.routes.map((x) => `| ${x.route} | ${x.sent} | ${x.errors} | ${x.p50Ms} | ${x.p99Ms} |`),
    ...(r.errorSamples.length === 0 ? [] : ["", "First errors:", "", ...r.errorSamples.map((s) => `- ${s.replace(/\|/g, "\\|")}`)]),
    ""
  ].join("\n")
