/**
 * Reads evidence/cassette-sources/live/responses-0.19.0.md (written by bench/tools/probes/responses-0.19.0.mts
 * against the real gateway) back into steps a test can replay against the emulator: the Script
 * appended, the exact request, and the raw response.
 */
import { readFileSync } from "node:fs"

export interface RecordedStep {
  readonly title: string
  readonly script: unknown
  readonly method: string
  readonly path: string
  readonly requestHeaders: ReadonlyArray<readonly [string, string]>
  readonly requestBody: string | undefined
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: string
}

const fences = (section: string): Array<string> => {
  const out: Array<string> = []
  let at = 0
  for (;;) {
    const open = section.indexOf("```", at)
    if (open < 0) return out
    const ticks = section.startsWith("````", open) ? "````" : "```"
    const start = section.indexOf("\n", open) + 1
    const close = section.indexOf(`\n${ticks}\n`, start)
    out.push(section.slice(start, close))
    at = close + ticks.length + 2
  }
}

const splitHead = (text: string) => {
  const split = text.indexOf("\n\n")
  const head = (split < 0 ? text : text.slice(0, split)).split("\n")
  const headers = head.slice(1).map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 2)] as const)
  return { first: head[0] ?? "", headers, body: split < 0 ? undefined : text.slice(split + 2) }
}

export const recordedSteps = (file: string): ReadonlyArray<RecordedStep> => {
  const text = readFileSync(new URL(`../../../../evidence/cassette-sources/live/${file}`, import.meta.url), "utf8")
  return text.split("\n### ").slice(1).map((section) => {
    const title = section.slice(0, section.indexOf("\n"))
    // the Script line belongs to the step after it: it precedes that step's heading
    const [request = "", response = ""] = fences(section)
    const req = splitHead(request)
    const res = splitHead(response)
    const [method = "", path = ""] = req.first.split(" ")
    return {
      title,
      script: undefined,
      method,
      path,
      requestHeaders: req.headers,
      requestBody: req.body,
      status: Number(res.first.split(" ")[1]),
      headers: res.headers,
      body: res.body ?? ""
    }
  }).map((step, i, all) => ({ ...step, script: scriptBefore(text, all, i) }))
}

/** The `Script appended:` line printed just above a step's heading, if any. */
const scriptBefore = (text: string, steps: ReadonlyArray<RecordedStep>, i: number): unknown => {
  const heading = text.indexOf(`\n### ${steps[i]?.title ?? ""}\n`)
  const previous = i === 0 ? 0 : text.indexOf(`\n### ${steps[i - 1]?.title ?? ""}\n`) + 1
  const between = text.slice(previous, heading)
  const m = /Script appended: `(.*)`\n*$/.exec(between)
  return m?.[1] === undefined ? undefined : JSON.parse(m[1])
}
