/**
 * Where `npm test`'s time goes: one `vitest run` (the default suite, or the files given after `--`)
 * under `/usr/bin/time -v`, with vitest's JSON reporter beside its default one. Writes to --out:
 * vitest-output.txt (the default reporter, whose summary carries the transform/setup/collect/tests phase
 * times), results.json (the JSON reporter: each file's start and end), time.txt (/usr/bin/time: user
 * and sys CPU of vitest and every child it waited for), load.txt (/proc/loadavg every 5 s: the
 * machine is shared, so a wall time means little without the load beside it) and summary.json.
 * `--compare A B` prints the markdown tables of two summaries (before/after per phase, top files).
 *
 *   npm run bench:test-suite -- --out DIR [--fresh] [-- vitest args...]
 *   npm run bench:test-suite -- --compare DIR_BEFORE DIR_AFTER [--top 15]
 *
 * --fresh removes vitest's results cache (node_modules/.vite/vitest), as a fresh clone has none: the
 * cache orders the files by their last durations.
 */
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { cpus } from "node:os"
import { basename, join, relative, resolve } from "node:path"
import { parseArgs } from "node:util"

const root = resolve(import.meta.dirname, "..")

interface FileTime {
  readonly file: string
  readonly ms: number
  readonly tests: number
}
interface Summary {
  readonly label: string
  readonly node: string
  readonly cores: number
  readonly exitCode: number
  readonly wallSeconds: number
  readonly userSeconds: number
  readonly sysSeconds: number
  readonly maxRssKiB: number
  readonly load: { readonly before: string; readonly after: string; readonly mean1m: number; readonly max1m: number; readonly samples: number }
  /** vitest's own summary line: Duration, then transform, setup, collect, tests, environment, prepare (seconds, summed over workers). */
  readonly phases: Record<string, number>
  readonly counts: { readonly passed: number; readonly failed: number; readonly skipped: number; readonly files: number }
  readonly files: ReadonlyArray<FileTime>
}

const seconds = (s: string): number => (s.endsWith("ms") ? Number(s.slice(0, -2)) / 1000 : s.endsWith("s") ? Number(s.slice(0, -1)) : Number.NaN)

/** "Duration  84.12s (transform 3.1s, setup 0ms, collect 40.2s, tests 200.1s, environment 12ms, prepare 3.3s)" */
const parsePhases = (log: string): Record<string, number> => {
  const plain = log.replace(/\x1b\[[0-9;]*m/g, "")
  const line = /Duration\s+(\S+)\s+\(([^)]*)\)/.exec(plain)
  if (line === null) return {}
  const phases: Record<string, number> = { duration: seconds(line[1]!) }
  for (const part of line[2]!.split(",")) {
    const [name, value] = part.trim().split(/\s+/)
    if (name !== undefined && value !== undefined) phases[name] = seconds(value)
  }
  return phases
}

const timeField = (text: string, field: string): string => new RegExp(`${field}[^:]*:\\s*(.+)`).exec(text)?.[1]?.trim() ?? ""

const wall = (s: string): number => s.split(":").map(Number).reduce((acc, v) => acc * 60 + v, 0)

const measure = async (out: string, fresh: boolean, vitestArgs: ReadonlyArray<string>): Promise<Summary> => {
  mkdirSync(out, { recursive: true })
  if (fresh) rmSync(join(root, "node_modules", ".vite", "vitest"), { recursive: true, force: true })
  const loadNow = () => readFileSync("/proc/loadavg", "utf8").trim()
  const before = loadNow()
  const samples: Array<string> = []
  const sampler = setInterval(() => samples.push(`${new Date().toISOString()} ${loadNow()}`), 5000)
  const results = join(out, "results.json")
  const vitest = join(root, "node_modules", "vitest", "vitest.mjs")
  const args = ["-v", "-o", join(out, "time.txt"), process.execPath, vitest, "run", "--reporter=default", "--reporter=json", `--outputFile.json=${results}`, ...vitestArgs]
  const code = await new Promise<number>((done, fail) => {
    const child = spawn("/usr/bin/time", args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" } })
    const log: Array<Buffer> = []
    child.stdout.on("data", (d: Buffer) => log.push(d))
    child.stderr.on("data", (d: Buffer) => log.push(d))
    child.on("error", fail)
    child.on("close", (c) => {
      writeFileSync(join(out, "vitest-output.txt"), Buffer.concat(log))
      done(c ?? 1)
    })
  })
  clearInterval(sampler)
  writeFileSync(join(out, "load.txt"), [`before ${before}`, ...samples, `after ${loadNow()}`].join("\n") + "\n")
  return summarize(out, code)
}

/** Reads a run's files (time.txt, vitest-output.txt, results.json, load.txt) into its summary.json. */
const summarize = (out: string, code: number): Summary => {
  const results = join(out, "results.json")
  const loadLines = readFileSync(join(out, "load.txt"), "utf8").trim().split("\n")
  const before = loadLines[0]!.replace(/^before /, "")
  const after = loadLines.at(-1)!.replace(/^after /, "")
  const ones = loadLines.slice(1, -1).map((s) => Number(s.split(" ")[1]))
  const time = readFileSync(join(out, "time.txt"), "utf8")
  const json = existsSync(results)
    ? (JSON.parse(readFileSync(results, "utf8")) as {
        numPassedTests: number
        numFailedTests: number
        numPendingTests: number
        numTodoTests: number
        testResults: Array<{ name: string; startTime: number; endTime: number; assertionResults: Array<unknown> }>
      })
    : undefined
  const summary: Summary = {
    label: basename(out),
    node: process.version,
    cores: cpus().length,
    exitCode: code,
    wallSeconds: wall(timeField(time, "Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)")),
    userSeconds: Number(timeField(time, "User time \\(seconds\\)")),
    sysSeconds: Number(timeField(time, "System time \\(seconds\\)")),
    maxRssKiB: Number(timeField(time, "Maximum resident set size \\(kbytes\\)")),
    load: {
      before,
      after,
      mean1m: ones.length === 0 ? Number.NaN : Math.round((ones.reduce((a, b) => a + b, 0) / ones.length) * 100) / 100,
      max1m: ones.length === 0 ? Number.NaN : Math.max(...ones),
      samples: ones.length
    },
    phases: parsePhases(readFileSync(join(out, "vitest-output.txt"), "utf8")),
    counts: {
      passed: json?.numPassedTests ?? 0,
      failed: json?.numFailedTests ?? 0,
      skipped: (json?.numPendingTests ?? 0) + (json?.numTodoTests ?? 0),
      files: json?.testResults.length ?? 0
    },
    files: (json?.testResults ?? [])
      .map((r) => ({ file: relative(root, r.name), ms: Math.round(r.endTime - r.startTime), tests: r.assertionResults.length }))
      .sort((a, b) => b.ms - a.ms)
  }
  writeFileSync(join(out, "summary.json"), JSON.stringify(summary, null, 2) + "\n")
  return summary
}

const compare = (a: Summary, b: Summary, top: number): string => {
  const row = (cells: ReadonlyArray<string | number>) => `| ${cells.join(" | ")} |`
  const f1 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? "–" : n.toFixed(1))
  const phaseNames = ["duration", "transform", "setup", "collect", "tests", "environment", "prepare"]
  const lines = [
    row(["", a.label, b.label]),
    row(["---", "---:", "---:"]),
    row(["wall (s)", f1(a.wallSeconds), f1(b.wallSeconds)]),
    row(["user + sys CPU (s)", f1(a.userSeconds + a.sysSeconds), f1(b.userSeconds + b.sysSeconds)]),
    ...phaseNames.map((p) => row([`vitest ${p} (s)`, f1(a.phases[p]), f1(b.phases[p])])),
    row(["load before (1/5/15 min)", a.load.before.split(" ").slice(0, 3).join(" "), b.load.before.split(" ").slice(0, 3).join(" ")]),
    row(["load 1 min: mean / max while running", `${f1(a.load.mean1m)} / ${f1(a.load.max1m)}`, `${f1(b.load.mean1m)} / ${f1(b.load.max1m)}`]),
    row(["tests passed / skipped / failed", `${a.counts.passed} / ${a.counts.skipped} / ${a.counts.failed}`, `${b.counts.passed} / ${b.counts.skipped} / ${b.counts.failed}`]),
    row(["files", a.counts.files, b.counts.files]),
    "",
    `Top ${top} files by duration (s), ${a.label} → ${b.label}:`,
    "",
    row(["file", a.label, b.label]),
    row(["---", "---:", "---:"])
  ]
  const byFile = new Map(b.files.map((f) => [f.file, f.ms]))
  const byFileA = new Map(a.files.map((f) => [f.file, f.ms]))
  const names = [...new Set([...a.files.slice(0, top), ...b.files.slice(0, top)].map((f) => f.file))]
  names.sort((x, y) => (byFileA.get(y) ?? 0) - (byFileA.get(x) ?? 0))
  for (const name of names) lines.push(row([`\`${name}\``, f1((byFileA.get(name) ?? Number.NaN) / 1000), f1((byFile.get(name) ?? Number.NaN) / 1000)]))
  return lines.join("\n") + "\n"
}

const dash = process.argv.indexOf("--")
const own = dash === -1 ? process.argv.slice(2) : process.argv.slice(2, dash)
const { values, positionals } = parseArgs({
  args: own,
  allowPositionals: true,
  options: { out: { type: "string" }, summarize: { type: "string" }, fresh: { type: "boolean" }, compare: { type: "boolean" }, top: { type: "string" }, help: { type: "boolean" } }
})
const usage = "npm run bench:test-suite -- --out DIR [--fresh] [-- vitest args...]\nnpm run bench:test-suite -- --compare DIR_BEFORE DIR_AFTER [--top 15]\n"
if (values.help === true) {
  process.stdout.write(usage)
} else if (values.summarize !== undefined) {
  // a run's files made by hand (the same layout): exit code from the JSON reporter's success flag
  const dir = resolve(values.summarize)
  const ok = (JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as { success: boolean }).success
  summarize(dir, ok ? 0 : 1)
} else if (values.compare === true) {
  if (positionals.length !== 2) {
    process.stderr.write(usage)
    process.exit(2)
  }
  const read = (dir: string) => JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Summary
  process.stdout.write(compare(read(positionals[0]!), read(positionals[1]!), Number(values.top ?? 15)))
} else {
  if (values.out === undefined || positionals.length > 0) {
    process.stderr.write(usage)
    process.exit(2)
  }
  const s = await measure(resolve(values.out), values.fresh === true, dash === -1 ? [] : process.argv.slice(dash + 1))
  process.stdout.write(
    `${s.label}: wall ${s.wallSeconds.toFixed(1)} s, CPU ${(s.userSeconds + s.sysSeconds).toFixed(1)} s, load ${s.load.before} → ${s.load.after}; ` +
      `${s.counts.passed} passed, ${s.counts.skipped} skipped, ${s.counts.failed} failed (exit ${s.exitCode})\n`
  )
  process.exitCode = s.exitCode
}
