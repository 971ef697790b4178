/**
 * Reads the raw exchanges recorded from the real gateway (evidence/cassette-sources/live/*.md, written by the probes
 * in bench/tools/probes/) so tests can hold the emulator to them byte for byte.
 */
import { readFileSync } from "node:fs"

export interface RecordedExchange {
  readonly title: string
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: string
  readonly requestBody: string | undefined
}

const EVIDENCE_DIR = new URL("../../../evidence/cassette-sources/live/", import.meta.url)

const fenced = (section: string, label: string): string | undefined => {
  const start = section.indexOf(`${label}:\n\n`)
  if (start < 0) return undefined
  const open = section.indexOf("\n", section.indexOf("```", start)) + 1
  const fence = section.slice(section.indexOf("```", start), open - 1)
  const close = section.indexOf(`\n${fence}\n`, open)
  return section.slice(open, close)
}

export const recordedExchanges = (file: string): ReadonlyArray<RecordedExchange> => {
  const text = readFileSync(new URL(file, EVIDENCE_DIR), "utf8")
  return text.split("\n### ").slice(1).map((section) => {
    const title = section.slice(0, section.indexOf("\n"))
    const response = fenced(section, "Response") ?? ""
    const request = fenced(section, "Request") ?? ""
    const split = response.indexOf("\n\n")
    const head = response.slice(0, split).split("\n")
    const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head[0] ?? "")?.[1])
    const headers = head.slice(1).map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 2)] as const)
    const reqSplit = request.indexOf("\n\n")
    return {
      title,
      status,
      headers,
      body: response.slice(split + 2),
      requestBody: reqSplit < 0 ? undefined : request.slice(reqSplit + 2)
    }
  })
}

export const recorded = (file: string, title: string): RecordedExchange => {
  const found = recordedExchanges(file).find((e) => e.title === title)
  if (found === undefined) throw new Error(`no exchange "${title}" in evidence/cassette-sources/live/${file}`)
  return found
}
