/** Writes `DIR/index.html` (the HTML report), reading the SVG pictures the REPORT.md sections show from `svgDir`. */
import { join } from "node:path"
import { FileSystem } from "@effect/platform"
import { Effect } from "effect"
import type { HtmlReportInput } from "./reportPayload.js"
import { renderHtmlReport } from "./renderHtmlReport.js"

export const writeHtmlReport = (input: HtmlReportInput, dir: string, svgDir?: string): Effect.Effect<string, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const svgs = new Map<string, string>()
    if (svgDir !== undefined) {
      for (const m of (input.reportMarkdown ?? "").matchAll(/!\[[^\]]*\]\(([\w.-]+\.svg)\)/g)) {
        const name = m[1] as string
        const svg = yield* fs.readFileString(join(svgDir, name)).pipe(Effect.orElseSucceed(() => undefined))
        // the SVG's own XML prolog has no place inside HTML
        if (svg !== undefined) svgs.set(name, svg.replace(/^<\?xml[^>]*>\s*/, ""))
      }
    }
    yield* fs.makeDirectory(dir, { recursive: true })
    const file = join(dir, "index.html")
    yield* fs.writeFileString(file, renderHtmlReport({ ...input, ...(svgs.size > 0 ? { svgs } : {}) }))
    return file
  }).pipe(Effect.orDie)
