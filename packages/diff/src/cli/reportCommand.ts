/**
 * `oracle report --head NEW.json [--base OLD.json] [--out FILE] [--html DIR]`: the HTML report of
 * NEW (with the delta against OLD), and with --base the change as Markdown for a pull-request
 * comment; exit 1 when a divergence is new.
 */
import { dirname, join } from "node:path"
import { FileSystem } from "@effect/platform"
import { Effect } from "effect"
import { readEvidenceFile } from "../evidence/readEvidence.js"
import { renderDelta } from "../evidence/renderDelta.js"
import { writeHtmlReport } from "../report/writeHtmlReport.js"
import type { ParsedArgs } from "./args.js"
import { UsageError } from "./CliError.js"
import { progress } from "./progress.js"

export const reportCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const { base, head, out } = args.values
    if (head === undefined) return yield* new UsageError({ message: "report needs --head NEW.json (and --base OLD.json for the change)" })
    const read = (file: string) => readEvidenceFile(file).pipe(Effect.mapError((e) => new UsageError({ message: e.message })))
    const fs = yield* FileSystem.FileSystem
    const headEvidence = yield* read(head)
    const baseEvidence = base !== undefined ? yield* read(base) : undefined
    // the sections other tools wrote into the REPORT.md beside the evidence become tabs
    const reportMarkdown = yield* fs.readFileString(join(dirname(head), "REPORT.md")).pipe(Effect.orElseSucceed(() => ""))
    const htmlDir = args.values.html ?? join(dirname(out ?? head), "report")
    const html = yield* writeHtmlReport({ evidence: headEvidence, reportMarkdown, ...(baseEvidence !== undefined ? { base: baseEvidence } : {}) }, htmlDir, dirname(head))
    progress(`html: ${html}`)
    if (baseEvidence === undefined) return 0 as const
    const delta = renderDelta(baseEvidence, headEvidence)
    if (out !== undefined) yield* Effect.orDie(fs.writeFileString(out, delta.markdown))
    else process.stdout.write(delta.markdown)
    return delta.newDivergences > 0 ? (1 as const) : (0 as const)
  })
