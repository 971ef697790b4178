/** `oracle report --base OLD.json --head NEW.json [--out FILE]`: the change between two evidence files as Markdown; exit 1 when a divergence is new. */
import { FileSystem } from "@effect/platform"
import { Effect } from "effect"
import { readEvidenceFile } from "../evidence/readEvidence.js"
import { renderDelta } from "../evidence/renderDelta.js"
import type { ParsedArgs } from "./args.js"
import { UsageError } from "./CliError.js"

export const reportCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const { base, head, out } = args.values
    if (base === undefined || head === undefined) return yield* new UsageError({ message: "report needs --base OLD.json and --head NEW.json" })
    const read = (file: string) => readEvidenceFile(file).pipe(Effect.mapError((e) => new UsageError({ message: e.message })))
    const delta = renderDelta(yield* read(base), yield* read(head))
    if (out !== undefined) yield* Effect.orDie(Effect.flatMap(FileSystem.FileSystem, (fs) => fs.writeFileString(out, delta.markdown)))
    else process.stdout.write(delta.markdown)
    return delta.newDivergences > 0 ? (1 as const) : (0 as const)
  })
