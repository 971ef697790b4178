/** `oracle merge DIR|FILE…`: the shards' evidence joined into one evidence JSON, REPORT.md and JUnit. */
import { Effect } from "effect"
import { mergeEvidence } from "../evidence/mergeEvidence.js"
import { defaultEvidenceDir } from "../evidence/provenance.js"
import { readEvidencePaths } from "../evidence/readEvidence.js"
import { writeEvidence } from "../evidence/writeEvidence.js"
import type { ParsedArgs } from "./args.js"
import { UsageError } from "./CliError.js"
import { comparisonResult } from "./comparisonResult.js"
import { progress } from "./progress.js"
import { refuseExistingReport } from "./refuseExistingReport.js"

export const mergeCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const out = args.values.out ?? defaultEvidenceDir()
    yield* refuseExistingReport(out, args.values.force)
    const found = yield* readEvidencePaths(args.positionals).pipe(Effect.mapError((e) => new UsageError({ command: "merge", message: e.message })))
    for (const { file, evidence } of found) {
      const s = evidence.provenance.shard
      progress(`${file}: ${s === undefined ? "unsharded" : `shard ${s.index}/${s.count}`}, ${evidence.summary.scenarios} scenarios`)
    }
    const merged = yield* mergeEvidence(found.map((f) => f.evidence))
    return comparisonResult("merge", merged, yield* writeEvidence(merged, out))
  })
