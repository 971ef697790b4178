/**
 * The traces `npm run reliability -- --soak --soak-trace FILE` wrote (bench/tools/stall-trace.ts),
 * side by side: blocks of the event loop by cause, and the single items of 10 ms or more that ran
 * on it (checkpoints inside main-connection statements, other statements, GC pauses), with the
 * worker's checkpoints. Reads FILE and FILE.thread-N.json, gzipped (.gz) or not.
 *
 *   node --import tsx bench/tools/stall-summary.ts before.json after.json ...
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import { gunzipSync } from "node:zlib"

interface Group {
  readonly count: number
  readonly ms: number
  readonly maxMs: number
}
interface Trace {
  readonly statements: number
  readonly maxLogMiB?: number
  readonly mainThreadCheckpoints: number
  readonly mainThreadCheckpointMs: number
  readonly workerCheckpoints: { readonly requests: number; readonly totalMs: number; readonly maxMs: number; readonly atLeast10Ms: number }
  readonly summary: { readonly blocks: Group; readonly atLeast20Ms: Group; readonly byCause: Record<string, Group> }
  readonly slowSql: ReadonlyArray<{ readonly ms: number; readonly sql: string; readonly checkpoint: boolean }>
  readonly gcs: ReadonlyArray<{ readonly ms: number }>
}

const read = (file: string): unknown => JSON.parse((file.endsWith(".gz") ? gunzipSync(readFileSync(file)) : readFileSync(file)).toString("utf8"))

const atLeast10 = (ms: ReadonlyArray<number>) => {
  const xs = ms.filter((x) => x >= 10).sort((a, b) => a - b)
  return `${xs.length} (${xs.reduce((n, x) => n + x, 0).toFixed(0)} ms, median ${(xs[xs.length >> 1] ?? 0).toFixed(1)}, max ${(xs[xs.length - 1] ?? 0).toFixed(1)})`
}

for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) throw new Error(`${file}: no such trace`)
  const t = read(file) as Trace
  const stem = basename(file).replace(/\.gz$/, "")
  const workerFiles = readdirSync(dirname(file)).filter((n) => n.startsWith(`${stem}.thread-`))
  const workerPasses = workerFiles
    .flatMap((n) => (read(join(dirname(file), n)) as { statements: Array<{ ms: number; sql: string }> }).statements)
    .filter((s) => s.sql.includes("wal_checkpoint"))
    .map((s) => s.ms)
  const s = t.summary
  const frequent = new Map<string, number>()
  for (const q of t.slowSql) if (!q.checkpoint && q.ms >= 10) frequent.set(q.sql.slice(0, 48), (frequent.get(q.sql.slice(0, 48)) ?? 0) + 1)
  console.log(`== ${file}: ${t.statements} statements${t.maxLogMiB === undefined ? "" : `, the WAL file at most ${t.maxLogMiB} MiB`}`)
  console.log(`  event-loop blocks >= 10 ms: ${s.blocks.count} (${s.blocks.ms} ms); >= 20 ms: ${s.atLeast20Ms.count} (${s.atLeast20Ms.ms} ms)`)
  for (const [cause, g] of Object.entries(s.byCause)) console.log(`    under ${cause.padEnd(10)} ${g.count} blocks, ${g.ms} ms, longest ${g.maxMs}`)
  console.log(`  checkpoints inside main-connection statements: ${t.mainThreadCheckpoints} (${t.mainThreadCheckpointMs} ms); >= 10 ms: ${atLeast10(t.slowSql.filter((q) => q.checkpoint).map((q) => q.ms))}`)
  console.log(`  worker checkpoint passes: ${workerPasses.length} (${workerPasses.reduce((n, x) => n + x, 0).toFixed(0)} ms); >= 10 ms: ${atLeast10(workerPasses)}`)
  console.log(`  other statements >= 10 ms: ${atLeast10(t.slowSql.filter((q) => !q.checkpoint).map((q) => q.ms))}`)
  console.log(`    most frequent: ${[...frequent].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([q, n]) => `${n}× ${q}`).join("; ")}`)
  console.log(`  GC pauses >= 10 ms: ${atLeast10(t.gcs.map((g) => g.ms))}`)
}
