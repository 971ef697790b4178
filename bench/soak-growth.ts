/**
 * How the soak's store grows and what each of its read routes costs as it does: the bundled CLI
 * with a data dir gets the soak's writes (bench/soak.ts MIX, in their shares of the mix) as fast
 * as it takes them, one soak-minute's worth at a time (the writes 200 operations/s send in 60 s),
 * and at the chosen minutes it stops writing, counts every table's rows and the files' sizes, and
 * times each read route of the mix one request at a time (p50, p99). A route whose p50 rises with
 * the minute is a cost that grows with the store. Each stage also records what the resident set is
 * made of (/proc's RssAnon/RssFile/RssShmem, and with --memory each thread's V8 heap and the largest
 * mappings, bench/tools/memory-report.ts), with --explain the session list's query plan and its
 * statement's own time on the emulator's connection (bench/tools/sql-explain.ts); --cli runs another tree's
 * bundle (an A/B of two builds).
 *
 *   node --conditions=@hermetic/source --import tsx bench/soak-growth.ts [--at 1,5,10] [--samples 200] [--memory] [--explain] [--cli BUNDLE] [--node-arg=FLAG ...] [--out FILE]
 */
import Database from "better-sqlite3"
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { freePort, percentile, rssKiB, rssParts, startBundledServe, stopEmu } from "./cliProcess.js"
import { type Call, MIX, type Pools, seed, SOAK_DEFAULTS } from "./soak.js"

const KEY = "soak-key-0123456789abcdef01234567"
const WRITES = MIX.filter(([name]) => name.startsWith("POST"))
// every route of the mix, the writes too (each timed call adds its rows, a few hundred in all)
const TIMED = MIX
const MEMORY_REPORT = fileURLToPath(new URL("./tools/memory-report.ts", import.meta.url))
const SQL_EXPLAIN = fileURLToPath(new URL("./tools/sql-explain.ts", import.meta.url))
// the session list's statement (features/sessions/SessionList.ts), as it starts
const SESSION_LIST_SQL = "WITH RECURSIVE roots AS MATERIALIZED"
const TOTAL_WEIGHT = MIX.reduce((n, [, w]) => n + w, 0)
// how many of each write one soak minute sends
const perMinute = WRITES.map(([name, w, fn]) => ({ name, fn, count: Math.round((SOAK_DEFAULTS.rate * 60 * w) / TOTAL_WEIGHT) }))

const round = (n: number, digits = 2) => Number(n.toFixed(digits))

/** One soak-minute of writes, interleaved, `concurrency` at a time. */
const growOneMinute = async (base: string, pools: Pools, concurrency: number) => {
  const queue: Array<Call> = []
  const most = Math.max(...perMinute.map((w) => w.count))
  for (let k = 0; k < most; k++) for (const w of perMinute) if (k < w.count) queue.push(w.fn)
  let next = 0
  const worker = async () => {
    while (next < queue.length) await (queue[next++] as Call)(base, pools)
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return queue.length
}

const rowCounts = (file: string): Record<string, number> => {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>
    return Object.fromEntries(tables.map(({ name }) => [name, (db.prepare(`SELECT COUNT(*) AS n FROM "${name}"`).get() as { n: number }).n]))
  } finally {
    db.close()
  }
}

const sizeMiB = (file: string) => {
  try {
    return round(statSync(file).size / 2 ** 20)
  } catch {
    return 0
  }
}

const timeRoutes = async (base: string, pools: Pools, samples: number) => {
  const out: Record<string, { p50Ms: number; p99Ms: number; meanMs: number }> = {}
  // a few rounds of every route first, so the JIT and the page cache are warm for all alike
  for (let k = 0; k < 20; k++) for (const [, , fn] of TIMED) await fn(base, pools)
  const ms = TIMED.map(() => [] as Array<number>)
  for (let k = 0; k < samples; k++) {
    for (const [i, [, , fn]] of TIMED.entries()) {
      const t = performance.now()
      await fn(base, pools)
      ms[i]?.push(performance.now() - t)
    }
  }
  for (const [i, [name]] of TIMED.entries()) {
    const xs = ms[i] ?? []
    out[name] = { p50Ms: round(percentile(xs, 50)), p99Ms: round(percentile(xs, 99)), meanMs: round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)) }
  }
  return out
}

const main = async () => {
  const { values } = parseArgs({
    options: {
      at: { type: "string", default: "1,5,10" },
      memory: { type: "boolean", default: false },
      explain: { type: "boolean", default: false },
      // a V8/Node flag for the emulator's node (--node-arg=--max-semi-space-size=16), repeatable
      "node-arg": { type: "string", multiple: true },
      cli: { type: "string" }, samples: { type: "string", default: "200" }, concurrency: { type: "string", default: "8" }, out: { type: "string" } }
  })
  const stops = (values.at ?? "").split(",").map(Number).filter((n) => Number.isInteger(n) && n > 0).sort((a, b) => a - b)
  const samples = Number(values.samples)
  const concurrency = Number(values.concurrency)
  const dir = mkdtempSync(join(tmpdir(), "hermetic-soak-growth-"))
  const dataDir = join(dir, "soak")
  const report = join(dir, "memory")
  const explainOut = join(dir, "explain")
  const e = await startBundledServe(await freePort(), ["--data-dir", dataDir, "--api-key", KEY, "--max-concurrent-runs", "0"], {
    ...(values.cli === undefined ? {} : { cli: values.cli }),
    nodeArgs: [...(values["node-arg"] ?? []), ...(values.memory === true ? ["--expose-gc", "--require", MEMORY_REPORT] : []), ...(values.explain === true ? ["--require", SQL_EXPLAIN] : [])],
    env: { HERMETIC_MEMORY_REPORT: report, HERMETIC_SQL_EXPLAIN: explainOut }
  })
  // the session list's plan and its statement's own time, on the emulator's connection (bench/tools/sql-explain.ts)
  const explain = async (base: string) => {
    writeFileSync(`${explainOut}.request`, SESSION_LIST_SQL)
    await (MIX.find(([n]) => n === "GET /api/sessions")?.[2] as Call)(base, { sessions: [], jobs: [], runs: [], responses: [] })
    return existsSync(`${explainOut}.json`) ? (JSON.parse(readFileSync(`${explainOut}.json`, "utf8")) as unknown) : undefined
  }
  // each thread's last memory report (the main thread is 0, the WAL checkpointer's worker 1)
  const memory = () =>
    [0, 1, 2].flatMap((t) => (existsSync(`${report}.thread-${t}.json`) ? [JSON.parse(readFileSync(`${report}.thread-${t}.json`, "utf8")) as unknown] : []))
  const pid = e.proc.pid as number
  const db = join(dataDir, "hermetic-emulator.db") // config/EmulatorConfig.ts SQLITE_FILE_NAME
  const stages: Array<unknown> = []
  try {
    const pools: Pools = { sessions: [], jobs: [], runs: [], responses: [] }
    await seed(e.url, pools)
    console.log(`soak-growth: one soak minute of writes = ${perMinute.map((w) => `${w.count} × ${w.name}`).join(", ")}`)
    let minute = 0
    for (const stop of stops) {
      const t = performance.now()
      let writes = 0
      for (; minute < stop; minute++) writes += await growOneMinute(e.url, pools, concurrency)
      const growSeconds = round((performance.now() - t) / 1000, 1)
      const rows = rowCounts(db)
      if (values.memory === true) {
        // the main thread collects fully and reports: its heap's used size is then what it retains
        e.proc.kill("SIGUSR2")
        await new Promise((r) => setTimeout(r, 1000))
      }
      const retained = values.memory === true ? memory() : undefined
      const sessionListPlan = values.explain === true ? await explain(e.url) : undefined
      const reads = await timeRoutes(e.url, pools, samples)
      const stage = { minute: stop, writes, growSeconds, rows, dbMiB: sizeMiB(db), walMiB: sizeMiB(`${db}-wal`), rssMiB: round(rssKiB(pid) / 1024, 1), rss: rssParts(pid), ...(retained === undefined ? {} : { afterFullGc: retained }), ...(sessionListPlan === undefined ? {} : { sessionListPlan }), routes: reads }
      stages.push(stage)
      console.log(JSON.stringify(stage))
    }
  } finally {
    await stopEmu(e)
    rmSync(dir, { recursive: true, force: true })
  }
  if (values.out !== undefined) writeFileSync(values.out, `${JSON.stringify({ at: new Date().toISOString(), samples, concurrency, perMinute: perMinute.map(({ name, count }) => ({ name, count })), stages }, null, 2)}\n`)
}

await main()
