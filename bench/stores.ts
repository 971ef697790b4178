/**
 * Store growth: every route's cost with each store (sessions with fork chains and messages, jobs,
 * stored responses, runs) at the small size and at the large one, on the bundled CLI (0.21.0,
 * file storage). Each store is grown through the CLI's own HTTP surface, so the rows are exactly
 * what clients leave; then every route is called one request at a time over one keep-alive
 * connection, interleaved between the two servers round by round (a machine that slows down for a
 * while slows both alike), and the large store's p50 and CPU per request are divided by the small
 * one's. Target: ≤ 1.5× for every route. A route whose answer lists the whole store (GET /api/jobs:
 * upstream's list has no page) grows with its answer; the table says so, and it is called a tenth as
 * often. Runs at 1M are the scale section's (bench/scale.ts), seeded by copying rows, which HTTP
 * cannot reach in bench time.
 */
import { execa } from "execa"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { repoRoot } from "./child.js"
import { percentile, spread, type Spread } from "./stats.js"

const KEY = "sk-bench-stores-growth"

export interface RouteCost {
  readonly route: string
  /** Whether the answer lists the whole store (its size grows with the store). */
  readonly listsWholeStore: boolean
  readonly small: { readonly p50Ms: Spread; readonly cpuMicros: Spread }
  readonly large: { readonly p50Ms: Spread; readonly cpuMicros: Spread }
  /** Median over rounds of large ÷ small, each round measured side by side. */
  readonly p50Ratio: number
  readonly cpuRatio: number
  readonly errors: number
}

export interface StoresResult {
  readonly sizes: { readonly small: number; readonly large: number }
  readonly seeding: ReadonlyArray<{ readonly size: number; readonly seconds: number; readonly rows: Record<string, number> }>
  readonly routes: ReadonlyArray<RouteCost>
  readonly target: string
  readonly withinTarget: ReadonlyArray<string>
  readonly overTarget: ReadonlyArray<string>
}

interface Server {
  readonly base: string
  readonly pid: number
  readonly stop: () => Promise<void>
  readonly dir: string
  /** Ids the routes address: a session with a fork chain, a job, a stored response, a run. */
  readonly ids: { session: string; job: string; response: string; run: string }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as AddressInfo).port
      s.close(() => resolve(p))
    })
  })

/** The CLI's CPU time (utime + stime, 10 ms ticks) from /proc, µs. */
const cpuOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(f[11]) + Number(f[12])) * 10_000
}

const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" }

const call = async (base: string, method: string, path: string, body?: unknown) => {
  const r = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  const text = await r.text()
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 200)}`)
  return text === "" ? {} : (JSON.parse(text) as Record<string, unknown>)
}

const idOf = (j: Record<string, unknown>, key: string): string => {
  const inner = j[key] as Record<string, unknown> | undefined
  return String(inner?.["id"] ?? j["id"] ?? j["run_id"])
}

/** `n` tasks, `width` at a time. */
const pool = async (n: number, width: number, task: (i: number) => Promise<void>) => {
  let next = 0
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) await task(next++)
  }))
}

const start = async (size: number, log: (s: string) => void): Promise<{ server: Server; seconds: number; rows: Record<string, number> }> => {
  const dir = mkdtempSync(join(tmpdir(), "hermetic-stores-"))
  const port = await freePort()
  const cli = execa(
    "node",
    ["packages/emulator/dist/hermes-emulator-launcher.cjs", "serve", "--port", String(port), "--data-dir", dir, "--hermes-version", "0.21.0", "--api-key", KEY, "--max-concurrent-runs", "0"],
    { cwd: repoRoot, reject: false, stdin: "ignore" }
  )
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    if (i > 3000 || cli.exitCode !== null) throw new Error(`the bundled CLI did not answer /health within 60 s: ${String(cli.stderr ?? "")}`)
    try {
      if ((await fetch(`${base}/health`)).ok) break
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20))
  }
  const t0 = performance.now()
  const ids = { session: "", job: "", response: "", run: "" }
  const rows = { sessions: 0, chats: 0, jobs: 0, responses: 0, runs: 0 }
  // sessions: every third starts a fork chain three deep; every fifth gets a chat (messages)
  await pool(Math.ceil(size / 4), 8, async (i) => {
    let id = idOf(await call(base, "POST", "/api/sessions", { title: `s${i}` }), "session")
    rows.sessions++
    if (i % 5 === 0) {
      await call(base, "POST", `/api/sessions/${id}/chat`, { message: `hello ${i}` })
      rows.chats++
    }
    for (let d = 0; d < 3; d++) {
      id = idOf(await call(base, "POST", `/api/sessions/${id}/fork`, {}), "session")
      rows.sessions++
    }
    if (i === 0) ids.session = id
  })
  log(`    ${size}: ${rows.sessions} sessions (${rows.chats} with a chat) in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  await pool(size, 8, async (i) => {
    const j = await call(base, "POST", "/api/jobs", { name: `job ${i}`, schedule: "every 1h", prompt: `prompt ${i}` })
    rows.jobs++
    if (i === 0) ids.job = idOf(j, "job")
  })
  await pool(size, 8, async (i) => {
    const r = await call(base, "POST", "/v1/responses", { input: `question ${i}`, store: true })
    rows.responses++
    // the store keeps the most recently used responses only (an LRU): address the newest
    ids.response = idOf(r, "response")
  })
  await pool(size, 8, async (i) => {
    const r = await call(base, "POST", "/v1/runs", { input: `run ${i}` })
    rows.runs++
    if (i === 0) ids.run = idOf(r, "run")
  })
  const seconds = (performance.now() - t0) / 1000
  log(`    ${size}: seeded ${JSON.stringify(rows)} in ${seconds.toFixed(1)} s`)
  const pid = cli.pid ?? 0
  const stop = async () => {
    cli.kill("SIGTERM")
    await Promise.race([cli, new Promise((r) => setTimeout(r, 5000))])
    cli.kill("SIGKILL")
    rmSync(dir, { recursive: true, force: true })
  }
  return { server: { base, pid, stop, dir, ids }, seconds, rows }
}

interface RouteSpec {
  readonly name: string
  readonly listsWholeStore?: boolean
  readonly request: (s: Server, i: number) => { readonly method: string; readonly path: string; readonly body?: unknown }
}

const ROUTES: ReadonlyArray<RouteSpec> = [
  { name: "GET /health", request: () => ({ method: "GET", path: "/health" }) },
  { name: "GET /health/detailed", request: () => ({ method: "GET", path: "/health/detailed" }) },
  { name: "GET /v1/models", request: () => ({ method: "GET", path: "/v1/models" }) },
  { name: "GET /v1/capabilities", request: () => ({ method: "GET", path: "/v1/capabilities" }) },
  { name: "GET /api/sessions?limit=20", request: () => ({ method: "GET", path: "/api/sessions?limit=20" }) },
  { name: "GET /api/sessions?limit=20&offset=200", request: () => ({ method: "GET", path: "/api/sessions?limit=20&offset=200" }) },
  { name: "GET /api/sessions/{id}", request: (s) => ({ method: "GET", path: `/api/sessions/${s.ids.session}` }) },
  { name: "GET /api/sessions/{id}/messages", request: (s) => ({ method: "GET", path: `/api/sessions/${s.ids.session}/messages` }) },
  { name: "POST /api/sessions", request: (_s, i) => ({ method: "POST", path: "/api/sessions", body: { title: `m${i}` } }) },
  { name: "PATCH /api/sessions/{id}", request: (s, i) => ({ method: "PATCH", path: `/api/sessions/${s.ids.session}`, body: { title: `t${i}` } }) },
  { name: "POST /api/sessions/{id}/fork", request: (s) => ({ method: "POST", path: `/api/sessions/${s.ids.session}/fork`, body: {} }) },
  { name: "POST /api/sessions/{id}/chat", request: (s, i) => ({ method: "POST", path: `/api/sessions/${s.ids.session}/chat`, body: { message: `m${i}` } }) },
  { name: "GET /api/jobs", listsWholeStore: true, request: () => ({ method: "GET", path: "/api/jobs" }) },
  { name: "POST /api/jobs", request: (_s, i) => ({ method: "POST", path: "/api/jobs", body: { name: `m${i}`, schedule: "every 1h", prompt: "p" } }) },
  { name: "GET /api/jobs/{id}", request: (s) => ({ method: "GET", path: `/api/jobs/${s.ids.job}` }) },
  { name: "PATCH /api/jobs/{id}", request: (s, i) => ({ method: "PATCH", path: `/api/jobs/${s.ids.job}`, body: { name: `n${i}` } }) },
  { name: "POST /api/jobs/{id}/pause", request: (s) => ({ method: "POST", path: `/api/jobs/${s.ids.job}/pause`, body: {} }) },
  { name: "GET /v1/responses/{id}", request: (s) => ({ method: "GET", path: `/v1/responses/${s.ids.response}` }) },
  { name: "POST /v1/responses", request: (_s, i) => ({ method: "POST", path: "/v1/responses", body: { input: `q${i}`, store: true } }) },
  { name: "GET /v1/runs/{id}", request: (s) => ({ method: "GET", path: `/v1/runs/${s.ids.run}` }) },
  { name: "POST /v1/runs", request: (_s, i) => ({ method: "POST", path: "/v1/runs", body: { input: `r${i}` } }) },
  { name: "POST /v1/chat/completions", request: (_s, i) => ({ method: "POST", path: "/v1/chat/completions", body: { model: "hermes-agent", messages: [{ role: "user", content: `c${i}` }] } }) }
]

/** `count` sequential calls of one route: p50 wall ms, CPU µs per call, non-2xx answers. */
const measureRoute = async (s: Server, spec: RouteSpec, count: number, offset: number) => {
  const times: Array<number> = []
  let errors = 0
  const c0 = cpuOf(s.pid)
  for (let i = 0; i < count; i++) {
    const { method, path, body } = spec.request(s, offset + i)
    const t0 = performance.now()
    const r = await fetch(`${s.base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    await r.arrayBuffer()
    times.push(performance.now() - t0)
    if (r.status >= 300) errors++
  }
  return { p50Ms: percentile(times, 50), cpuMicros: (cpuOf(s.pid) - c0) / count, errors }
}

const median = (xs: ReadonlyArray<number>) => percentile([...xs], 50)

export const stores = async (opts: {
  readonly small: number
  readonly large: number
  readonly rounds: number
  readonly callsPerRound: number
  readonly log: (s: string) => void
}): Promise<StoresResult> => {
  const seeded = []
  const servers: Array<Server> = []
  try {
    for (const size of [opts.small, opts.large]) {
      const s = await start(size, opts.log)
      servers.push(s.server)
      seeded.push({ size, seconds: Math.round(s.seconds * 10) / 10, rows: s.rows })
    }
    const [small, large] = servers as [Server, Server]
    const routes: Array<RouteCost> = []
    for (const spec of ROUTES) {
      const perRound: Array<{ small: { p50Ms: number; cpuMicros: number }; large: { p50Ms: number; cpuMicros: number } }> = []
      let errors = 0
      // one untimed pass each first: statement preparation and caches are no part of the growth
      // a route listing the whole store costs seconds a call at the large size: fewer calls, same rounds
      const calls = spec.listsWholeStore === true ? Math.max(3, Math.round(opts.callsPerRound / 10)) : opts.callsPerRound
      await measureRoute(small, spec, 5, 0)
      await measureRoute(large, spec, 5, 0)
      for (let round = 0; round < opts.rounds; round++) {
        const order = round % 2 === 0 ? [small, large] : [large, small]
        const got = new Map<Server, Awaited<ReturnType<typeof measureRoute>>>()
        for (const s of order) got.set(s, await measureRoute(s, spec, calls, 1000 * (round + 1)))
        const a = got.get(small)!
        const b = got.get(large)!
        errors += a.errors + b.errors
        perRound.push({ small: a, large: b })
      }
      const cost: RouteCost = {
        route: spec.name,
        listsWholeStore: spec.listsWholeStore === true,
        small: { p50Ms: spread(perRound.map((r) => r.small.p50Ms)), cpuMicros: spread(perRound.map((r) => r.small.cpuMicros)) },
        large: { p50Ms: spread(perRound.map((r) => r.large.p50Ms)), cpuMicros: spread(perRound.map((r) => r.large.cpuMicros)) },
        p50Ratio: median(perRound.map((r) => r.large.p50Ms / r.small.p50Ms)),
        cpuRatio: median(perRound.map((r) => (r.small.cpuMicros === 0 ? 1 : r.large.cpuMicros / r.small.cpuMicros))),
        errors
      }
      opts.log(`    ${spec.name}: p50 ${median(perRound.map((r) => r.small.p50Ms)).toFixed(2)} → ${median(perRound.map((r) => r.large.p50Ms)).toFixed(2)} ms (×${cost.p50Ratio.toFixed(2)}), CPU ×${cost.cpuRatio.toFixed(2)}${errors > 0 ? `, ${errors} non-2xx` : ""}`)
      routes.push(cost)
    }
    const within = routes.filter((r) => r.listsWholeStore || r.p50Ratio <= 1.5).map((r) => r.route)
    return {
      sizes: { small: opts.small, large: opts.large },
      seeding: seeded,
      routes,
      target: "each route's p50 at the large store ≤ 1.5× its p50 at the small one (a route listing the whole store excepted)",
      withinTarget: within,
      overTarget: routes.filter((r) => !within.includes(r.route)).map((r) => r.route)
    }
  } finally {
    for (const s of servers) await s.stop()
  }
}

const f2 = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1))
const cell = (s: Spread) => `${f2(s.median)} (${f2(s.min)}–${f2(s.max)})`

export const renderStores = (r: StoresResult): string =>
  [
    `Each store grown over HTTP to ${r.sizes.small.toLocaleString("en")} and to ${r.sizes.large.toLocaleString("en")} (${r.seeding.map((s) => `${s.size}: ${Object.entries(s.rows).map(([k, v]) => `${v} ${k}`).join(", ")}, ${s.seconds} s`).join("; ")}). ` +
      `One request at a time per route, both servers side by side each round. Target: ${r.target}.`,
    "",
    `| route | p50 ms at ${r.sizes.small} | p50 ms at ${r.sizes.large} | p50 ratio | CPU µs/req at ${r.sizes.small} | at ${r.sizes.large} | CPU ratio | errors |`,
    "|---|---|---|---|---|---|---|---|",
    ...r.routes.map((c) =>
      `| ${c.route}${c.listsWholeStore ? " (lists the whole store)" : ""} | ${cell(c.small.p50Ms)} | ${cell(c.large.p50Ms)} | ${c.p50Ratio.toFixed(2)}× | ${cell(c.small.cpuMicros)} | ${cell(c.large.cpuMicros)} | ${c.cpuRatio.toFixed(2)}× | ${c.errors} |`
    ),
    "",
    r.overTarget.length === 0 ? "Every route within the target." : `Over the target: ${r.overTarget.join(", ")}.`
  ].join("\n")
