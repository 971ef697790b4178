/**
 * What test suites feel: the cost of isolating one test from the next, and of many small tests.
 * A "test" is what a typical suite does per case: script one reply in its own namespace, ask one
 * chat completion, check the answer's text.
 * - in process (Emulator.layer, the emulator's `fetch`, no socket): the Layer's own start, a
 *   namespace reset after a test, a fresh namespace's first request, 1,000 isolated tests;
 * - over HTTP (the emulator in its own process, fetch with keep-alive): 1,000 isolated tests;
 * - parallel test files: a vitest run of N files × M tests sharing one emulator (started in
 *   globalSetup) through a namespace per test, against the same files doing no requests.
 * Wall times are what a suite waits; CPU times of this process are reported next to them. Every
 * part uses the emulator's built package (dist/, what npm installs), as the bench's servers do
 * (bench/child.ts): that is what users run (through tsx, a POST cost ~30 % more CPU in process; a
 * test here, once warm, about the same).
 */
import { execa } from "execa"
import { ManagedRuntime } from "effect"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { type AddressInfo, connect, createServer as createNetServer } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { ensureBuilt, repoRoot, startChild } from "./child.js"
import { spread, type Spread } from "./stats.js"
import { type Fetch, headersFor, oneTest } from "./suiteTest.js"

import { SUITE_KEY as KEY } from "./suiteTest.js"

export interface ColdStartResult {
  readonly rounds: number
  /** `node packages/emulator/dist/hermes-emulator-launcher.cjs serve` (the launcher of the bundled CLI, dist/hermes-emulator.cjs, with its code cache): spawn to the first 200 of /health, ms. */
  readonly cliWallMs: Spread
  /** The CLI process's CPU time at that moment, all its threads (from the schedstat of each of its tasks in /proc, ns precision), ms. */
  readonly cliCpuMs: Spread
  /** The CLI's own "ready in N ms" (layers built and listening, after its code loaded). */
  readonly cliOwnStartMs: Spread
  /** The same for a node:http server answering "ok" (node's own start on this machine now). */
  readonly emptyNodeWallMs: Spread
  readonly emptyNodeCpuMs: Spread
  readonly bundleBytes: number
  /** The first start after building the bundle, before any V8 code cache exists (the rounds above start with it). */
  readonly firstStart?: { readonly wallMs: number; readonly cpuMs: number }
  /** The 1-minute load average as the rounds began and ended: the machine has 2 cores, and a loaded one stretches every wall time. */
  readonly loadAverage?: { readonly start: number; readonly end: number }
  /**
   * The rounds above start node without the variables that make node work before any script runs
   * (NODE_START_VARIABLES). When the bench's own environment sets some of them, the same rounds
   * with that environment as it is, side by side: what a shell with them set sees.
   */
  readonly inheritedEnvironment?: {
    readonly variables: ReadonlyArray<string>
    readonly cliWallMs: Spread
    readonly cliCpuMs: Spread
    readonly emptyNodeWallMs: Spread
    readonly emptyNodeCpuMs: Spread
  }
}

export interface SuitesResult {
  readonly coldStart?: ColdStartResult
  /** Layer start in process (services, storage open and migrated, app built), ms. */
  readonly layerStartMs: Spread
  /** POST /__admin/reset of a namespace one test just used, in process. */
  readonly resetMs: { readonly wall: Spread; readonly cpu: Spread }
  /** The first request (a Script upload) in a never-used namespace, in process. */
  readonly freshNamespaceMs: { readonly wall: Spread; readonly cpu: Spread }
  readonly tests: number
  /** 1,000 isolated tests in process: total seconds (wall, CPU of this process). */
  readonly inProcessSeconds: { readonly wall: Spread; readonly cpu: Spread }
  /** The same tests against the emulator in its own process, over loopback HTTP. */
  readonly overHttpSeconds: { readonly wall: Spread }
  readonly parallel: {
    readonly files: number
    readonly testsPerFile: number
    readonly workers: number
    /** `vitest run` of the files with their requests, s. */
    readonly withEmulatorSeconds: Spread
    /** The same files, each test doing nothing: vitest's own share, s. */
    readonly vitestAloneSeconds: Spread
  }
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(since)
  return (c.user + c.system) / 1000
}

const timed = async (body: () => Promise<void>) => {
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  await body()
  return { wall: performance.now() - t0, cpu: cpuMs(c0) }
}

/** The built package, loaded by path: the bench runs under the @hermetic/source condition, which maps the package name to src/. */
export const builtEmulator = async (): Promise<typeof import("@hermetic/emulator")> => {
  ensureBuilt()
  return (await import(pathToFileURL(join(repoRoot, "packages/emulator/dist/index.js")).href)) as typeof import("@hermetic/emulator")
}

const inProcess = async (rounds: number, tests: number, log: (s: string) => void) => {
  const { Emulator, layer } = await builtEmulator()
  const starts: Array<number> = []
  const resets = { wall: [] as Array<number>, cpu: [] as Array<number> }
  const fresh = { wall: [] as Array<number>, cpu: [] as Array<number> }
  const runs = { wall: [] as Array<number>, cpu: [] as Array<number> }
  // one start to load and compile the code, then the measured ones
  for (let round = -1; round < rounds; round++) {
    const t0 = performance.now()
    const runtime = ManagedRuntime.make(layer({ apiKey: KEY, hermesVersion: "0.21.0" }))
    const emu = await runtime.runPromise(Emulator)
    if (round >= 0) starts.push(performance.now() - t0)
    try {
      const f: Fetch = (input, init) => emu.fetch(input, init)
      const base = "http://emulator"
      await oneTest(f, base, "warm", 0)
      // a reset after each test, one namespace
      const resetSamples = 200
      let resetWall = 0
      let resetCpu = 0
      for (let i = 0; i < resetSamples; i++) {
        await oneTest(f, base, "reused", i)
        const t = await timed(async () => {
          const r = await f(`${base}/__admin/reset`, { method: "POST", headers: headersFor("reused"), body: "{}" })
          if (r.status !== 200) throw new Error(`reset answered ${r.status}`)
          await r.arrayBuffer()
        })
        resetWall += t.wall
        resetCpu += t.cpu
      }
      resets.wall.push(resetWall / resetSamples)
      resets.cpu.push(resetCpu / resetSamples)
      // a never-used namespace's first request
      let freshWall = 0
      let freshCpu = 0
      for (let i = 0; i < resetSamples; i++) {
        const t = await timed(async () => {
          const r = await f(`${base}/__admin/script`, {
            method: "POST",
            headers: headersFor(`fresh-${round}-${i}`),
            body: JSON.stringify({ turns: [{ replies: [{ text: "x" }] }] })
          })
          await r.arrayBuffer()
        })
        freshWall += t.wall
        freshCpu += t.cpu
      }
      fresh.wall.push(freshWall / resetSamples)
      fresh.cpu.push(freshCpu / resetSamples)
      // 1,000 isolated tests, a namespace each
      const t = await timed(async () => {
        for (let i = 0; i < tests; i++) await oneTest(f, base, `test-${round}-${i}`, i)
      })
      runs.wall.push(t.wall / 1000)
      runs.cpu.push(t.cpu / 1000)
      if (round >= 0) {
        log(`  in process round ${round + 1}/${rounds}: layer start ${starts.at(-1)?.toFixed(1)} ms, reset ${(resetWall / resetSamples).toFixed(3)} ms, fresh namespace ${(freshWall / resetSamples).toFixed(3)} ms, ${tests} tests ${(t.wall / 1000).toFixed(3)} s`)
      }
    } finally {
      await runtime.dispose()
    }
  }
  // drop the warm-up round's samples
  const measured = (xs: Array<number>) => spread(xs.slice(1))
  return {
    layerStartMs: spread(starts),
    resetMs: { wall: measured(resets.wall), cpu: measured(resets.cpu) },
    freshNamespaceMs: { wall: measured(fresh.wall), cpu: measured(fresh.cpu) },
    inProcessSeconds: { wall: measured(runs.wall), cpu: measured(runs.cpu) }
  }
}

const overHttp = async (rounds: number, tests: number, log: (s: string) => void) => {
  const child = await startChild("bench/servers/emulator.ts")
  const walls: Array<number> = []
  try {
    const f: Fetch = (input, init) => fetch(input, init)
    for (let i = 0; i < 50; i++) await oneTest(f, child.baseUrl, `warm-${i}`, i)
    for (let round = 0; round < rounds; round++) {
      const t = await timed(async () => {
        for (let i = 0; i < tests; i++) await oneTest(f, child.baseUrl, `http-${round}-${i}`, i)
      })
      walls.push(t.wall / 1000)
      log(`  over HTTP round ${round + 1}/${rounds}: ${tests} tests ${(t.wall / 1000).toFixed(3)} s`)
    }
  } finally {
    await child.stop()
  }
  return { wall: spread(walls) }
}

/** A throw-away vitest project: N files of M tests, one emulator in globalSetup, a namespace per test. */
const writeSuite = (dir: string, files: number, testsPerFile: number, idle: boolean) => {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const rel = (p: string) => join(repoRoot, p)
  writeFileSync(
    join(dir, "setup.ts"),
    `import type { TestProject } from "vitest/node"
import { startEmulator } from ${JSON.stringify(rel("packages/emulator/dist/index.js"))}
export default async function setup(project: TestProject) {
  const emu = await startEmulator({ apiKey: ${JSON.stringify(KEY)}, hermesVersion: "0.21.0" })
  project.provide("emulatorUrl", emu.url)
  return () => emu.close()
}
`
  )
  writeFileSync(
    join(dir, "vitest.config.ts"),
    `import { defineConfig } from "vitest/config"
export default defineConfig({ test: { include: ["*.test.ts"], globalSetup: ["./setup.ts"], pool: "forks", maxWorkers: ${WORKERS}, minWorkers: 1 } })
`
  )
  for (let f = 0; f < files; f++) {
    writeFileSync(
      join(dir, `file${f}.test.ts`),
      `import { inject, it } from "vitest"
import { oneTest } from ${JSON.stringify(rel("bench/suiteTest.ts"))}
const url = inject("emulatorUrl" as never) as string
for (let i = 0; i < ${testsPerFile}; i++) {
  it("test " + i, async () => {
    ${idle ? "void url" : `await oneTest(fetch, url, "file${f}-" + i, i)`}
  })
}
`
    )
  }
}

/** Vitest workers: this machine has 2 cores. */
const WORKERS = 2

const parallelFiles = async (rounds: number, files: number, testsPerFile: number, log: (s: string) => void) => {
  const dir = join(repoRoot, "bench", ".suites-tmp")
  const run = async (idle: boolean) => {
    writeSuite(dir, files, testsPerFile, idle)
    const t0 = performance.now()
    const r = await execa("npx", ["vitest", "run", "--root", dir], { cwd: repoRoot, reject: false, all: true, stdin: "ignore" })
    const seconds = (performance.now() - t0) / 1000
    if (r.exitCode !== 0) throw new Error(`vitest run failed (${String(r.exitCode)}): ${String(r.all).slice(-2000)}`)
    return seconds
  }
  const withEmulator: Array<number> = []
  const alone: Array<number> = []
  try {
    for (let round = 0; round < rounds; round++) {
      alone.push(await run(true))
      withEmulator.push(await run(false))
      log(`  parallel files round ${round + 1}/${rounds}: ${files}×${testsPerFile} tests ${withEmulator.at(-1)?.toFixed(2)} s, the same files idle ${alone.at(-1)?.toFixed(2)} s`)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return { withEmulatorSeconds: spread(withEmulator), vitestAloneSeconds: spread(alone) }
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createNetServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port
      s.close(() => resolve(port))
    })
  })

const EMPTY_SERVER = `const port = Number(process.argv[process.argv.indexOf("--port") + 1]);
require("node:http").createServer((q, s) => s.end("ok")).listen(port, "127.0.0.1")`

/** Whether something accepts a TCP connection on the loopback port (closed again at once). */
const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

/** CPU time of every thread of `pid` so far, ms: schedstat's nanoseconds, not stat's 10 ms ticks (a start is ~100 ms). */
const threadsCpuMs = (pid: number | undefined): number => {
  if (pid === undefined) return Number.NaN
  let ns = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0])
  return ns / 1e6
}

/**
 * Variables node acts on before it runs a line of the script. NODE_EXTRA_CA_CERTS makes node 20
 * build its whole TLS root store at start: on this machine (a 144-certificate bundle) `node -e 0`
 * took 80 ms with it and 30 ms without, for an emulator that never opens an outbound TLS
 * connection. A start measured with them set measures the shell it ran in.
 */
const NODE_START_VARIABLES = ["NODE_EXTRA_CA_CERTS", "NODE_OPTIONS", "NODE_V8_COVERAGE", "NODE_DEBUG", "NODE_DEBUG_NATIVE"] as const

/** This process's environment without NODE_START_VARIABLES. */
const startNeutralEnv = (): Record<string, string | undefined> => {
  const env: Record<string, string | undefined> = { ...process.env }
  for (const name of NODE_START_VARIABLES) delete env[name]
  return env
}

/** Spawn to the first 200 of /health, and the process's CPU time then. */
const coldStartOnce = async (args: ReadonlyArray<string>, environment: "neutral" | "inherited" = "neutral") => {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), "hermetic-cold-"))
  const env = environment === "neutral" ? { env: startNeutralEnv(), extendEnv: false } : {}
  const t0 = performance.now()
  const proc = execa("node", [...args, "--port", String(port), "--data-dir", dataDir], { cwd: repoRoot, reject: false, stdin: "ignore", ...env })
  let own: number | undefined
  proc.stdout?.on("data", (c: Buffer) => {
    const m = /ready in (\d+) ms/.exec(c.toString("utf8"))
    if (m?.[1] !== undefined) own = Number(m[1])
  })
  try {
    for (;;) {
      if (performance.now() - t0 > 60_000) throw new Error(`${args.join(" ")} did not answer /health within 60 s`)
      // a TCP connect until the port accepts, then the request: a refused fetch costs this process
      // ~0.6 ms CPU, and ~48 of them per start (28 ms) took a core from the process measured
      if (!(await accepts(port))) {
        await new Promise((resolve) => setTimeout(resolve, 2))
        continue
      }
      try {
        const r = await fetch(`http://127.0.0.1:${port}/health`)
        await r.arrayBuffer()
        if (r.status === 200) break
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    const wall = performance.now() - t0
    const cpu = threadsCpuMs(proc.pid)
    return { wall, cpu, own }
  } finally {
    proc.kill("SIGTERM")
    await Promise.race([proc, new Promise((resolve) => setTimeout(resolve, 5000))])
    proc.kill("SIGKILL")
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const coldStart = async (rounds: number, log: (s: string) => void): Promise<ColdStartResult> => {
  const launcher = join(repoRoot, "packages/emulator/dist/hermes-emulator-launcher.cjs")
  const cliArgs = [launcher, "serve", "--hermes-version", "0.21.0", "--api-key", KEY]
  await execa("node", ["packages/emulator/scripts/bundle.mjs"], { cwd: repoRoot })
  const samples = () => ({ wall: [] as Array<number>, cpu: [] as Array<number> })
  const cli = { ...samples(), own: [] as Array<number> }
  const empty = samples()
  const inheritedVariables = NODE_START_VARIABLES.filter((name) => process.env[name] !== undefined)
  const inheritedCli = samples()
  const inheritedEmpty = samples()
  // the fresh bundle has no V8 code cache yet: the first start compiles everything and writes the
  // cache as it exits; it is reported on its own, the rounds after it start with the cache
  rmSync(join(tmpdir(), "hermetic-compile-cache"), { recursive: true, force: true })
  const first = await coldStartOnce(cliArgs)
  const loadAtStart = loadavg()[0] ?? Number.NaN
  log(`  cold start without a code cache: bundled CLI ${first.wall.toFixed(0)} ms wall, ${first.cpu.toFixed(0)} ms CPU (own start ${String(first.own)} ms)`)
  const ms = (r: { wall: number; cpu: number }) => `${r.wall.toFixed(0)} ms wall, ${r.cpu.toFixed(0)} ms CPU`
  for (let round = 0; round < rounds; round++) {
    const c = await coldStartOnce(cliArgs)
    const e = await coldStartOnce(["-e", EMPTY_SERVER, "--"])
    cli.wall.push(c.wall)
    cli.cpu.push(c.cpu)
    if (c.own !== undefined) cli.own.push(c.own)
    empty.wall.push(e.wall)
    empty.cpu.push(e.cpu)
    log(`  cold start round ${round + 1}/${rounds}: bundled CLI ${ms(c)} (own start ${String(c.own)} ms); empty node:http ${ms(e)}`)
    if (inheritedVariables.length > 0) {
      const ci = await coldStartOnce(cliArgs, "inherited")
      const ei = await coldStartOnce(["-e", EMPTY_SERVER, "--"], "inherited")
      inheritedCli.wall.push(ci.wall)
      inheritedCli.cpu.push(ci.cpu)
      inheritedEmpty.wall.push(ei.wall)
      inheritedEmpty.cpu.push(ei.cpu)
      log(`    with ${inheritedVariables.join(", ")} as this shell sets it: bundled CLI ${ms(ci)}; empty node:http ${ms(ei)}`)
    }
  }
  return {
    rounds,
    cliWallMs: spread(cli.wall),
    cliCpuMs: spread(cli.cpu),
    cliOwnStartMs: spread(cli.own),
    firstStart: { wallMs: first.wall, cpuMs: first.cpu },
    emptyNodeWallMs: spread(empty.wall),
    emptyNodeCpuMs: spread(empty.cpu),
    loadAverage: { start: loadAtStart, end: loadavg()[0] ?? Number.NaN },
    bundleBytes: statSync(join(repoRoot, "packages/emulator/dist/hermes-emulator.cjs")).size,
    ...(inheritedVariables.length === 0
      ? {}
      : {
        inheritedEnvironment: {
          variables: inheritedVariables,
          cliWallMs: spread(inheritedCli.wall),
          cliCpuMs: spread(inheritedCli.cpu),
          emptyNodeWallMs: spread(inheritedEmpty.wall),
          emptyNodeCpuMs: spread(inheritedEmpty.cpu)
        }
      })
  }
}

export const suites = async (opts: { readonly rounds: number; readonly tests: number; readonly log: (s: string) => void }): Promise<SuitesResult> => {
  const files = 4
  const testsPerFile = Math.max(1, Math.round(opts.tests / files))
  // a start is ~0.1 s and the median of a few is at the mercy of other load: 11 rounds at least
  const cold = await coldStart(Math.max(11, opts.rounds), opts.log)
  const local = await inProcess(opts.rounds, opts.tests, opts.log)
  const http = await overHttp(opts.rounds, opts.tests, opts.log)
  const parallel = await parallelFiles(opts.rounds, files, testsPerFile, opts.log)
  return {
    coldStart: cold,
    ...local,
    tests: opts.tests,
    overHttpSeconds: http,
    parallel: { files, testsPerFile, workers: WORKERS, ...parallel }
  }
}
