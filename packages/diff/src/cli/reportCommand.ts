/** `oracle report --base OLD.json --head NEW.json [--out FILE]`: the change between two evidence files as Markdown; exit 1 when a divergence is new. */
import { FileSystem } from "@effect/platform"
import { Effect } from "effect"
import { readEvidenceFile } from "../evidence/readEvidence.js"
import { renderDelta } from "../evidence/renderDelta.js"
import type { ParsedArgs } from "./args.js"
import { UsageError } from "./CliError.js"
import type { CommandResult } from "./OracleDocument.js"

export const reportCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const { base, head, out } = args.values
    if (base === undefined || head === undefined) return yield* new UsageError({ command: "report", message: "report needs --base OLD.json and --head NEW.json" })
    const read = (file: string) => readEvidenceFile(file).pipe(Effect.mapError((e) => new UsageError({ command: "report", message: e.message })))
    const delta = renderDelta(yield* read(base), yield* read(head))
    if (out !== undefined) yield* Effect.flatMap(FileSystem.FileSystem, (fs) => fs.writeFileString(out, delta.markdown))
    const exitCode = delta.newDivergences > 0 ? (1 as const) : (0 as const)
    return {
      exitCode,
      text: out === undefined ? delta.markdown : `written: ${out}\n`,
      document: { command: "report", exitCode, newDivergences: delta.newDivergences, fixedDivergences: delta.fixedDivergences, markdown: delta.markdown, ...(out !== undefined ? { written: out } : {}) }
    } satisfies CommandResult
  })
