/**
 * Differential replay: every exchange recorded from the real 0.19.0 gateway in
 * evidence/cassette-sources/live/chat-completions-0.19.0.md (the oracle runner's strict home: no tools) and
 * chat-tool-progress-0.19.0.md (Hermes' default toolsets) is replayed, in the recorded order and
 * with the same Script, against one emulator configured alike; status, headers and body must match once server-made ids and
 * timestamps are normalized. The few exchanges the emulator does not reproduce are listed with
 * the reason — a listed exchange that starts matching fails the test, so the list stays honest.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { API_KEY, type Client, startClient } from "../support.js"
import { type RecordedExchange, recordedExchanges } from "../liveEvidence.js"
import { rawRequest, semanticHeaders } from "../rawHttp.js"
import { readFileSync } from "node:fs"
import type { EmulatorOptions } from "../../src/index.js"
import { HERMES_DEFAULT_ENABLED_TOOLSETS } from "../../src/agent/tools/ToolsetCatalog.js"

/** Exchanges the emulator knowingly answers differently, and why. */
const KNOWN_DIVERGENCES: Readonly<Record<string, string>> = {
  "stream with a held reply (keepalive after 30 s of silence)": "takes 30 s; the keepalive is covered by chat-stream.test.ts"
}

interface Recorded extends RecordedExchange {
  readonly script: unknown
  readonly method: string
  readonly path: string
  readonly requestHeaders: Record<string, string>
}

/** The script, request line and headers of each section (the shared reader gives the rest). */
const load = (file: string): ReadonlyArray<Recorded> => {
  const text = readFileSync(new URL(`../../../../evidence/cassette-sources/live/${file}`, import.meta.url), "utf8")
  const sections = text.split("\n### ").slice(1)
  return recordedExchanges(file).map((ex, i) => {
    const section = sections[i] ?? ""
    const script = /Script appended: `(.*)`/.exec(section)?.[1]
    const request = section.slice(section.indexOf("Request:\n\n```\n") + 14)
    const lines = request.slice(0, request.indexOf("\n\n")).split("\n")
    const [method, path] = (lines[0] ?? "").split(" ")
    const requestHeaders: Record<string, string> = {}
    for (const l of lines.slice(1)) {
      if (l.startsWith("```")) break
      requestHeaders[l.slice(0, l.indexOf(":"))] = l.slice(l.indexOf(":") + 2).replace("<API_SERVER_KEY>", API_KEY)
    }
    return { ...ex, script: script === undefined ? undefined : JSON.parse(script), method: method ?? "", path: path ?? "", requestHeaders }
  })
}

const normalize = (s: string): string =>
  s.replace(/chatcmpl-[0-9a-f]{29}/g, "chatcmpl-<id>").replace(/"created": \d+/g, '"created": <t>')

const VOLATILE = /^(content-length):/

const replay = (file: string, options: EmulatorOptions) => () => {
  let c: Client
  const exchanges = load(file)
  const answers = new Map<string, { status: number; headers: Array<string>; body: string }>()

  beforeAll(async () => {
    c = await startClient({ hermesVersion: "0.19.0", ...options })
    for (const ex of exchanges) {
      if (ex.title.includes("keepalive")) continue
      if (ex.script !== undefined) await c.script(ex.script as never)
      const hasBody = ex.requestBody !== undefined
      const res = await rawRequest(c.emu.url, ex.method, ex.path, ex.requestHeaders, hasBody ? ex.requestBody : undefined)
      answers.set(ex.title, { status: res.status, headers: semanticHeaders(res.headers), body: res.body })
    }
  })
  afterAll(() => c.emu.close())

  for (const ex of exchanges) {
    const divergence = KNOWN_DIVERGENCES[ex.title]
    it(`${ex.title}${divergence === undefined ? "" : " (known divergence)"}`, () => {
      if (ex.title.includes("keepalive")) return
      const emu = answers.get(ex.title)
      expect(emu).toBeDefined()
      if (emu === undefined) return
      const same =
        emu.status === ex.status &&
        normalize(emu.body) === normalize(ex.body) &&
        JSON.stringify(emu.headers.filter((h) => !VOLATILE.test(h))) ===
          JSON.stringify(semanticHeaders(ex.headers).filter((h) => !VOLATILE.test(h)))
      if (divergence !== undefined) {
        expect(same, `now matches; remove it from KNOWN_DIVERGENCES: ${divergence}`).toBe(false)
        return
      }
      expect(emu.status).toBe(ex.status)
      expect(normalize(emu.body)).toBe(normalize(ex.body))
      expect(emu.headers.filter((h) => !VOLATILE.test(h))).toEqual(semanticHeaders(ex.headers).filter((h) => !VOLATILE.test(h)))
    })
  }
}

describe("chat completions replayed against the recorded real 0.19.0 gateway (no tools)", replay("chat-completions-0.19.0.md", {}))

describe(
  "tool progress replayed against the recorded real 0.19.0 gateway (Hermes' default toolsets)",
  replay("chat-tool-progress-0.19.0.md", { enabledToolsets: HERMES_DEFAULT_ENABLED_TOOLSETS })
)
