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
import type { CommandResult } from "./OracleDocument.js"
import { progress } from "./progress.js"

export const reportCommand = (args: ParsedArgs) =>
  Effect.gen(function*() {
    const { base, head, out } = args.values
    if (head === undefined) return yield* new UsageError({ command: "report", message: "report needs --head NEW.json (and --base OLD.json for the change)" })
    const read = (file: string) => readEvidenceFile(file).pipe(Effect.mapError((e) => new UsageError({ command: "report", message: e.message })))
    const fs = yield* FileSystem.FileSystem
    const headEvidence = yield* read(head)
    const baseEvidence = base !== undefined ? yield* read(base) : undefined
    // the sections other tools wrote into the REPORT.md beside the evidence become tabs
    const reportMarkdown = yield* fs.readFileString(join(dirname(head), "REPORT.md")).pipe(Effect.orElseSucceed(() => ""))
    const htmlDir = args.values.html ?? join(dirname(out ?? head), "report")
    const html = yield* writeHtmlReport({ evidence: headEvidence, reportMarkdown, ...(baseEvidence !== undefined ? { base: baseEvidence } : {}) }, htmlDir, dirname(head))
    progress(`html: ${html}`)
    const delta = baseEvidence === undefined ? undefined : renderDelta(baseEvidence, headEvidence)
    if (out !== undefined && delta !== undefined) yield* fs.writeFileString(out, delta.markdown)
    const exitCode = delta !== undefined && delta.newDivergences > 0 ? (1 as const) : (0 as const)
    const markdown = delta?.markdown ?? ""
    return {
      exitCode,
      text: out === undefined || delta === undefined ? markdown : `written: ${out}\n`,
      document: { command: "report", exitCode, newDivergences: delta?.newDivergences ?? 0, fixedDivergences: delta?.fixedDivergences ?? 0, markdown, html, ...(out !== undefined && delta !== undefined ? { written: out } : {}) }
    } satisfies CommandResult
  })
