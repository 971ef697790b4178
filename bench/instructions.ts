/**
 * Instructions per request, counted rather than timed: the bare section's three requests against
 * the same two servers (bench/servers/emulator.ts, bench/servers/bare.ts), each server run under
 * Valgrind's cachegrind, which counts every user-space instruction of the process — its
 * JavaScript, V8's compiler and garbage-collector threads, SQLite — and none of the kernel's
 * (strace showed both servers making the same syscalls per request: one read, one writev).
 *
 * A request's count is the difference of two runs of the same server, one answering W + N1
 * requests and the other W + N2, over N2 − N1: start-up, loading and warm-up cancel. Why count:
 * on this 2-core machine a timed figure moves ±10–25 % between runs, and a slower server is
 * charged extra for the wake-ups it cannot batch with the load generator on the same cores
 * (bench:calibrate); two counts of the same code differ by ~3 %. Valgrind runs a process ~30×
 * slower, so this section takes minutes. Needs valgrind (Debian: `apt-get install valgrind`).
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startChild } from "./child.js"
import { SPECS, targetOf } from "./emulator-vs-bare.js"
import { runCount } from "./load.js"

export interface CountedOp {
  readonly name: string
  /** Instructions per request, median of the rounds (each a pair of runs). */
  readonly emulator: ReadonlyArray<number>
  readonly bare: ReadonlyArray<number>
  readonly ratio: number
}

export interface InstructionsResult {
  readonly measured: boolean
  readonly todo?: string
  readonly valgrind?: string
  readonly warmup: number
  readonly requests: readonly [number, number]
  readonly ops: ReadonlyArray<CountedOp>
  readonly notes: ReadonlyArray<string>
}

const valgrindVersion = (): string | undefined => {
  try {
    return execFileSync("valgrind", ["--version"], { encoding: "utf8" }).trim()
  } catch {
    return undefined
  }
}

/** The total instruction count cachegrind wrote (`summary: N`). */
const readTotal = (file: string): number => {
  const line = readFileSync(file, "utf8").split("\n").find((l) => l.startsWith("summary:"))
  if (line === undefined) throw new Error(`no summary line in ${file}`)
  return Number(line.slice("summary:".length).trim())
}

/** One server under cachegrind answering `warmup` then `requests` requests; its total instructions. */
const countedRun = async (script: string, spec: (typeof SPECS)[number], warmup: number, requests: number, dir: string): Promise<number> => {
  const out = join(dir, `cg-${process.hrtime.bigint()}`)
  const child = await startChild(script, [], {
    wrapper: ["valgrind", "--tool=cachegrind", "--cache-sim=no", `--cachegrind-out-file=${out}`],
    timeoutMs: 10 * 60_000
  })
  try {
    await runCount(spec, targetOf(child), warmup, 4)
    await runCount(spec, targetOf(child), requests, 4)
  } finally {
    await child.stop(120_000)
  }
  return readTotal(out)
}

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? 0
}

export const instructionsPerRequest = async (opts: {
  readonly rounds: number
  readonly warmup: number
  readonly requests: readonly [number, number]
  readonly log: (s: string) => void
}): Promise<InstructionsResult> => {
  const [n1, n2] = opts.requests
  const notes = [
    `Each figure is (I(W + ${n2}) − I(W + ${n1})) / ${n2 - n1} for W = ${opts.warmup} warm-up requests, I being the instructions cachegrind counted in the whole server process (user space only) from start to exit; 4 connections.`,
    "The servers are the bare section's: the emulator's built package and the bare node:http + better-sqlite3 reference, both plain JavaScript on plain node."
  ]
  const valgrind = valgrindVersion()
  if (valgrind === undefined) {
    return { measured: false, todo: "valgrind is not installed (Debian: apt-get install valgrind)", warmup: opts.warmup, requests: opts.requests, ops: [], notes }
  }
  const dir = mkdtempSync(join(tmpdir(), "hermetic-instructions-"))
  try {
    const ops: Array<CountedOp> = []
    for (const spec of SPECS) {
      const per: Record<"emulator" | "bare", Array<number>> = { emulator: [], bare: [] }
      for (let round = 0; round < opts.rounds; round++) {
        for (const [side, script] of [["emulator", "bench/servers/emulator.ts"], ["bare", "bench/servers/bare.ts"]] as const) {
          const low = await countedRun(script, spec, opts.warmup, n1, dir)
          const high = await countedRun(script, spec, opts.warmup, n2, dir)
          const each = (high - low) / (n2 - n1)
          per[side].push(each)
          opts.log(`  ${spec.name} round ${round + 1}/${opts.rounds} ${side}: ${Math.round(each).toLocaleString("en-US")} instructions per request`)
        }
      }
      ops.push({ name: spec.name, emulator: per.emulator, bare: per.bare, ratio: median(per.emulator) / median(per.bare) })
    }
    return { measured: true, valgrind, warmup: opts.warmup, requests: opts.requests, ops, notes }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export const renderInstructions = (r: InstructionsResult): string => {
  if (!r.measured) return `**TODO — not measured:** ${r.todo ?? "unknown reason"}`
  const k = (n: number) => `${Math.round(n / 1000).toLocaleString("en-US")}k`
  const lines = [
    `Counted with ${r.valgrind ?? "valgrind"} (cachegrind, user-space instructions of the server process). Median of ${r.ops[0]?.emulator.length ?? 0} round(s); the spread is each round's figure.`,
    "",
    "| request | emulator, instructions per request | bare, instructions per request | emulator ÷ bare |",
    "| --- | --- | --- | --- |"
  ]
  for (const op of r.ops) {
    lines.push(
      `| ${op.name} | ${k(median(op.emulator))} (${op.emulator.map(k).join(", ")}) | ${k(median(op.bare))} (${op.bare.map(k).join(", ")}) | ${op.ratio.toFixed(2)}× |`
    )
  }
  for (const n of r.notes) lines.push("", `Note: ${n}`)
  return lines.join("\n")
}
