/**
 * A section of a REPORT.md owned by one generator, between `<!-- name:start -->` and
 * `<!-- name:end -->`: replaced in place, or appended when absent; nothing else in the file changes.
 * writeEvidence keeps such sections when it rewrites the report.
 */
import { readFile, writeFile } from "node:fs/promises"

export const replaceReportSection = (text: string, name: string, markdown: string): string => {
  const start = `<!-- ${name}:start -->`
  const end = `<!-- ${name}:end -->`
  const block = `${start}\n${markdown.trimEnd()}\n${end}`
  const a = text.indexOf(start)
  const b = text.indexOf(end)
  if (a >= 0 && b > a) return text.slice(0, a) + block + text.slice(b + end.length)
  return `${text}${text === "" || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n"}${block}\n`
}

export const writeReportSection = async (path: string, name: string, markdown: string): Promise<void> => {
  const text = await readFile(path, "utf8").catch(() => "")
  await writeFile(path, replaceReportSection(text, name, markdown))
}
