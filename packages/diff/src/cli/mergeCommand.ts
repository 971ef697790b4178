/** `oracle merge DIR|FILE…`: the shards' evidence joined into one evidence JSON, REPORT.md and JUnit. */
import { Effect } from "effect"
import { exitCodeOf } from "../compare/compareAll.js"
import { mergeEvidence } from "../evidence/mergeEvidence.js"
import { defaultEvidenceDir } from "../evidence/provenance.js"
import { readEvidencePaths } from "../evidence/readEvidence.js"
import { writeEvidence } from "../evidence/writeEvidence.js"
import type { ParsedArgs } from "./args.js"
import { UsageError } from "./CliError.js"
import { progress } from "./progress.js"
import { summaryTable } from "./summaryTable.js"

export const mergeCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const paths = args.positionals.slice(1)
    if (paths.length === 0) return yield* new UsageError({ message: "merge needs the shards' evidence: oracle merge DIR|FILE …" })
    const found = yield* readEvidencePaths(paths).pipe(Effect.mapError((e) => new UsageError({ message: e.message })))
    for (const { file, evidence } of found) {
      const s = evidence.provenance.shard
      progress(`${file}: ${s === undefined ? "unsharded" : `shard ${s.index}/${s.count}`}, ${evidence.summary.scenarios} scenarios`)
    }
    const merged = yield* Effect.try({ try: () => mergeEvidence(found.map((f) => f.evidence)), catch: (e) => new UsageError({ message: e instanceof Error ? e.message : String(e) }) })
    const written = yield* writeEvidence(merged, args.values.out ?? defaultEvidenceDir())
    process.stdout.write(summaryTable(merged))
    process.stdout.write(`evidence: ${written.json}\nreport:   ${written.report}\nhtml:     ${written.html}\njunit:    ${written.junit}\n`)
    return exitCodeOf(merged)
  })
