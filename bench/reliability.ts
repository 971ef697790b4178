/**
 * `npm run reliability`: the emulator under abuse, in figures, for the reliability section of
 * evidence/REPORT.md (and evidence/reliability/reliability.{json,md}). Not part of npm test: it spawns the bundled
 * CLI (bench/cliProcess.ts; `npm run build` first), loads it on loopback for about a minute and
 * kills it with SIGKILL.
 *
 *   1. concurrent identical keyed submits (POST /v1/runs, one Idempotency-Key) → runs made
 *   2. kill -9 under load, 3 rounds → acknowledged sessions, jobs and keyed runs lost after restart
 *   3. 200 SSE subscribers on 200 held runs → how many saw run.completed
 *   4. 50 slow clients (headers dribbled a byte at a time) → GET /health p50/p99 beside them
 *   5. 10 clients streaming 400 MiB each → RSS growth of the emulator process
 *
 * `--soak [--soak-minutes N] [--soak-rate R] [--soak-trace FILE]` runs only the soak instead
 * (bench/soak.ts); `--soak-trace` writes where the emulator's event loop blocked to FILE.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as net from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { replaceReportSection } from "../packages/diff/src/evidence/reportSection.js"
import { type Emu, freePort, percentile, rssKiB, startBundledServe, stopEmu } from "./cliProcess.js"
import { renderSoak, runSoak, SOAK_DEFAULTS } from "./soak.js"

const KEY = "reliability-key-0123456789abcdef"
const H = { authorization: `Bearer ${KEY}`, "content-type": "application/json" }
const ADMIN = { "x-hermetic-admin-key": KEY, "content-type": "application/json" }

const startEmu = (port: number, dataDir: string, pin: string, extra: ReadonlyArray<string> = []): Promise<Emu> =>
  startBundledServe(port, ["--data-dir", dataDir, "--hermes-version", pin, "--api-key", KEY, ...extra])

const loadNow = () => loadavg().map((l) => Number(l.toFixed(2)))

const admin = (e: Emu, path: string, body?: unknown) =>
  fetch(`${e.url}/__admin${path}`, { method: body === undefined ? "GET" : "POST", headers: ADMIN, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })

/** 1. N concurrent POST /v1/runs with one Idempotency-Key (0.21.0: the runs ledger). */
const keyedSubmits = async (dir: string, n: number) => {
  const e = await startEmu(await freePort(), join(dir, "keyed"), "0.21.0")
  try {
    await admin(e, "/script", { turns: Array.from({ length: 5 }, () => ({ replies: [{ text: "ok" }] })) })
    const answers = await Promise.all(
      Array.from({ length: n }, () =>
        fetch(`${e.url}/v1/runs`, { method: "POST", headers: { ...H, "idempotency-key": "same-key" }, body: JSON.stringify({ input: "hi" }) }).then(
          async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }),
          () => ({ status: 0, body: {} as Record<string, unknown> })
        )
      )
    )
    const runIds = new Set(answers.filter((a) => a.status === 202).map((a) => String(a.body["run_id"])))
    const state = (await (await admin(e, "/state")).json()) as Record<string, unknown>
    return { submits: n, accepted: answers.filter((a) => a.status === 202).length, distinctRunIds: runIds.size, runsMade: Number(state["runs"]), otherStatuses: answers.filter((a) => a.status !== 202).map((a) => a.status).slice(0, 10) }
  } finally {
    await stopEmu(e)
  }
}

/** 2. Writes under load, SIGKILL at a random moment, restart on the same data dir, count what was acknowledged and is gone. */
const killUnderLoad = async (dir: string, rounds: number) => {
  const data = join(dir, "kill")
  const port = await freePort()
  const results: Array<Record<string, number>> = []
  for (let round = 0; round < rounds; round++) {
    let e = await startEmu(port, data, "0.21.0")
    const acked = { sessions: [] as Array<string>, jobs: [] as Array<string>, runs: [] as Array<readonly [string, string]> }
    let stop = false
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const id = `r${round}-w${w}-${i}`
        try {
          const kind = i % 3
          if (kind === 0) {
            const r = await fetch(`${e.url}/api/sessions`, { method: "POST", headers: H, body: JSON.stringify({ id }) })
            if (r.status === 201) acked.sessions.push(id)
          } else if (kind === 1) {
            const r = await fetch(`${e.url}/api/jobs`, { method: "POST", headers: H, body: JSON.stringify({ name: id, schedule: "every 1h", prompt: "p" }) })
            if (r.status === 201 || r.status === 200) acked.jobs.push(String(((await r.json()) as { job: { id: string } }).job.id))
          } else {
            const r = await fetch(`${e.url}/v1/runs`, { method: "POST", headers: { ...H, "idempotency-key": id }, body: JSON.stringify({ input: id }) })
            if (r.status === 202) acked.runs.push([id, String(((await r.json()) as { run_id: string }).run_id)])
          }
        } catch {
          return // the process died under us
        }
      }
    }
    const workers = Array.from({ length: 8 }, (_, w) => worker(w))
    await new Promise((r) => setTimeout(r, 1500 + Math.floor(Math.random() * 1500)))
    await stopEmu(e, "SIGKILL")
    stop = true
    await Promise.all(workers)
    e = await startEmu(port, data, "0.21.0")
    let sessionsLost = 0
    let jobsLost = 0
    let runsLost = 0
    for (const id of acked.sessions) if ((await fetch(`${e.url}/api/sessions/${id}`, { headers: H })).status !== 200) sessionsLost++
    for (const id of acked.jobs) if ((await fetch(`${e.url}/api/jobs/${id}`, { headers: H })).status !== 200) jobsLost++
    // a keyed run survives as its ledger entry: the same key must answer the same run id
    for (const [key, runId] of acked.runs) {
      const r = await fetch(`${e.url}/v1/runs`, { method: "POST", headers: { ...H, "idempotency-key": key }, body: JSON.stringify({ input: key }) })
      const body = (await r.json()) as { run_id?: string }
      if (body.run_id !== runId) runsLost++
    }
    await stopEmu(e)
    results.push({ round, sessionsAcked: acked.sessions.length, sessionsLost, jobsAcked: acked.jobs.length, jobsLost, keyedRunsAcked: acked.runs.length, keyedRunsLost: runsLost })
  }
  return results
}

/** 3. N subscribers, one per held run; the holds are released together. */
const sseSubscribers = async (dir: string, n: number) => {
  // no cap on concurrent runs (the default 10 would refuse the rest with 429)
  const e = await startEmu(await freePort(), join(dir, "sse"), "0.19.0", ["--max-concurrent-runs", "0"])
  try {
    await admin(e, "/script", { turns: Array.from({ length: n }, (_, i) => ({ replies: [{ hold: `h${i}`, text: `done ${i}` }] })) })
    const runIds: Array<string> = []
    for (let i = 0; i < n; i++) {
      const r = await fetch(`${e.url}/v1/runs`, { method: "POST", headers: H, body: JSON.stringify({ input: `run ${i}` }) })
      runIds.push(String(((await r.json()) as { run_id: string }).run_id))
    }
    const started = performance.now()
    const streams = runIds.map((id) => fetch(`${e.url}/v1/runs/${id}/events`, { headers: H }).then((r) => r.text()).catch(() => ""))
    await new Promise((r) => setTimeout(r, 500))
    for (let i = 0; i < n; i++) await admin(e, `/holds/h${i}/release`, {})
    const texts = await Promise.all(streams)
    return { subscribers: n, sawCompleted: texts.filter((t) => t.includes("run.completed")).length, seconds: Number(((performance.now() - started) / 1000).toFixed(2)) }
  } finally {
    await stopEmu(e)
  }
}

/** 4. /health latency while N clients dribble their request headers a byte every 200 ms. */
const slowClients = async (dir: string, n: number, requests: number) => {
  const e = await startEmu(await freePort(), join(dir, "slow"), "0.19.0")
  const measure = async () => {
    const ms: Array<number> = []
    for (let i = 0; i < requests; i++) {
      const t = performance.now()
      await (await fetch(`${e.url}/health`)).text()
      ms.push(performance.now() - t)
    }
    return { p50: Number(percentile(ms, 50).toFixed(2)), p99: Number(percentile(ms, 99).toFixed(2)) }
  }
  try {
    const alone = await measure()
    const sockets: Array<net.Socket> = []
    const head = "POST /v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nX-Slow: " + "s".repeat(10_000)
    const timers: Array<NodeJS.Timeout> = []
    for (let i = 0; i < n; i++) {
      const s = net.connect(e.port, "127.0.0.1")
      s.on("error", () => undefined)
      sockets.push(s)
      let at = 0
      timers.push(setInterval(() => s.write(head[at++ % head.length] as string), 200))
    }
    await new Promise((r) => setTimeout(r, 1000))
    const beside = await measure()
    for (const t of timers) clearInterval(t)
    for (const s of sockets) s.destroy()
    return { slowClients: n, requests, alone, besideSlowClients: beside }
  } finally {
    await stopEmu(e)
  }
}

/** 5. N clients each streaming `mib` MiB chunked (to runs, with the key, and to an unknown route); peak RSS growth. */
const bigUploads = async (dir: string, n: number, mib: number) => {
  const e = await startEmu(await freePort(), join(dir, "upload"), "0.19.0")
  try {
    await new Promise((r) => setTimeout(r, 500))
    const pid = e.proc.pid as number
    const before = rssKiB(pid)
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, rssKiB(pid))), 50)
    const chunk = Buffer.concat([Buffer.from("100000\r\n"), Buffer.alloc(0x100000), Buffer.from("\r\n")])
    const upload = (path: string, auth: boolean) =>
      new Promise<{ sentMiB: number; status: string }>((resolve) => {
        const s = net.connect(e.port, "127.0.0.1")
        let sent = 0
        let answer = ""
        const done = () => resolve({ sentMiB: sent, status: answer.split("\r\n")[0] ?? "" })
        s.on("data", (d) => (answer += d.toString("latin1")))
        s.on("close", done)
        s.on("error", () => undefined)
        s.on("connect", () => {
          s.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth ? `Authorization: Bearer ${KEY}\r\n` : ""}Transfer-Encoding: chunked\r\n\r\n`)
          const pump = () => {
            while (sent < mib && !s.destroyed) {
              sent++
              if (!s.write(chunk)) return void s.once("drain", pump)
            }
            if (!s.destroyed) s.end("0\r\n\r\n")
          }
          pump()
        })
      })
    const started = performance.now()
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => upload(i % 2 === 0 ? "/v1/runs" : "/nonexistent", i % 2 === 0)))
    clearInterval(sampler)
    return {
      clients: n,
      mibEach: mib,
      rssBeforeMiB: Number((before / 1024).toFixed(1)),
      rssPeakMiB: Number((peak / 1024).toFixed(1)),
      rssGrowthMiB: Number(((peak - before) / 1024).toFixed(1)),
      targetMiB: 50,
      seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
      answers: answers.map((a) => `${a.status} after ${a.sentMiB} MiB sent`)
    }
  } finally {
    await stopEmu(e)
  }
}

const render = (r: Record<string, unknown>): string => {
  const k = r["keyedSubmits"] as Awaited<ReturnType<typeof keyedSubmits>>
  const kill = r["killUnderLoad"] as Awaited<ReturnType<typeof killUnderLoad>>
  const sse = r["sseSubscribers"] as Awaited<ReturnType<typeof sseSubscribers>>
  const slow = r["slowClients"] as Awaited<ReturnType<typeof slowClients>>
  const up = r["bigUploads"] as Awaited<ReturnType<typeof bigUploads>>
  const load = r["loadAverage"] as { start: Array<number>; end: Array<number> } | undefined
  return [
    "## Reliability",
    "",
    `Measured by \`npm run reliability\` (bench/reliability.ts) on ${String(r["at"])}: the bundled emulator CLI (dist/hermes-emulator-launcher.cjs) in its own process, loopback only` +
      (load === undefined ? "." : `; load average (1, 5, 15 min) ${load.start.join(", ")} at the start, ${load.end.join(", ")} at the end (2 cores, shared).`),
    "",
    "| probe | result |",
    "| --- | --- |",
    `| ${k.submits} concurrent identical keyed POST /v1/runs (0.21.0) | ${k.accepted} accepted, ${k.distinctRunIds} distinct run id(s), **${k.runsMade} run(s) made** |`,
    ...kill.map((x) => `| kill -9 under load, round ${x["round"]! + 1} (8 writers) | sessions ${x["sessionsLost"]}/${x["sessionsAcked"]} lost, jobs ${x["jobsLost"]}/${x["jobsAcked"]} lost, keyed runs ${x["keyedRunsLost"]}/${x["keyedRunsAcked"]} lost (acknowledged / lost after restart) |`),
    `| ${sse.subscribers} SSE subscribers on held runs | ${sse.sawCompleted}/${sse.subscribers} saw run.completed, in ${sse.seconds} s |`,
    `| ${slow.slowClients} slow clients (a header byte every 200 ms) | GET /health p50 ${slow.besideSlowClients.p50} ms, p99 ${slow.besideSlowClients.p99} ms (alone: p50 ${slow.alone.p50} ms, p99 ${slow.alone.p99} ms; ${slow.requests} requests) |`,
    `| ${up.clients} clients streaming ${up.mibEach} MiB each (chunked; half to /v1/runs, half to an unknown route) | RSS ${up.rssBeforeMiB} → peak ${up.rssPeakMiB} MiB: **growth ${up.rssGrowthMiB} MiB** (target ≤ ${up.targetMiB}); ${up.seconds} s |`,
    ""
  ].join("\n")
}


/** OUT/reliability/NAME.{json,md}, the NAME section of OUT/REPORT.md (made if missing), and the Markdown on stdout. */
const writeFigures = (out: string, name: "soak" | "reliability", result: unknown, md: string): void => {
  mkdirSync(join(out, "reliability"), { recursive: true })
  writeFileSync(join(out, "reliability", `${name}.json`), `${JSON.stringify(result, null, 2)}\n`)
  writeFileSync(join(out, "reliability", `${name}.md`), `${md.trimEnd()}\n`)
  const reportPath = join(out, "REPORT.md")
  const text = existsSync(reportPath) ? readFileSync(reportPath, "utf8") : ""
  writeFileSync(reportPath, replaceReportSection(text, name, md))
  process.stdout.write(`${md}\n`)
}

/** `--soak`: the soak alone; its figures go to OUT/reliability/soak.{json,md} and the soak section of OUT/REPORT.md. */
const soak = async (out: string, minutes: number, rate: number, warmupMinutes: number, trace: string | undefined) => {
  const dir = mkdtempSync(join(tmpdir(), "hermetic-soak-"))
  try {
    const log = (s: string) => process.stderr.write(`reliability: ${s}\n`)
    const result = await runSoak({ minutes, rate, warmupMinutes, dataDir: dir, log, ...(trace === undefined ? {} : { trace }) })
    writeFigures(out, "soak", result, renderSoak(result))
    const met = result.verdict.met
    return met.errors && met.rate && met.rssDrift && met.p99 ? 0 : 1
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const positive = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number >= 0, got '${value}'`)
  return n
}

const main = async () => {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      quick: { type: "boolean" },
      soak: { type: "boolean" },
      "soak-minutes": { type: "string" },
      "soak-rate": { type: "string" },
      "soak-warmup-minutes": { type: "string" },
      "soak-trace": { type: "string" }
    }
  })
  const out = values.out ?? "evidence"
  if (values.soak === true) {
    const minutes = positive("soak-minutes", values["soak-minutes"], SOAK_DEFAULTS.minutes)
    const warmup = positive("soak-warmup-minutes", values["soak-warmup-minutes"], Math.min(SOAK_DEFAULTS.warmupMinutes, Math.floor(minutes / 3)))
    process.exitCode = await soak(out, minutes, positive("soak-rate", values["soak-rate"], SOAK_DEFAULTS.rate), warmup, values["soak-trace"])
    return
  }
  const quick = values.quick === true
  // the machine is shared: the figures are read beside the load they were taken under
  const loadAtStart = loadNow()
  const dir = mkdtempSync(join(tmpdir(), "hermetic-reliability-"))
  try {
    const log = (s: string) => process.stderr.write(`reliability: ${s}\n`)
    log("keyed submits")
    const keyed = await keyedSubmits(dir, quick ? 100 : 1000)
    log("kill -9 under load")
    const kill = await killUnderLoad(dir, quick ? 1 : 3)
    log("SSE subscribers")
    const sse = await sseSubscribers(dir, quick ? 20 : 200)
    log("slow clients")
    const slow = await slowClients(dir, quick ? 10 : 50, quick ? 200 : 1000)
    log("big uploads")
    const up = await bigUploads(dir, 10, quick ? 40 : 400)
    const result = { at: new Date().toISOString(), quick, loadAverage: { start: loadAtStart, end: loadNow() }, keyedSubmits: keyed, killUnderLoad: kill, sseSubscribers: sse, slowClients: slow, bigUploads: up }
    writeFigures(out, "reliability", result, render(result))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
