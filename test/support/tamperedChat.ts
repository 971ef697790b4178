/**
 * A comparison with something to show: the emulator against an emulator whose chat completion
 * answers were tampered with (`object` changed, `usage` dropped, an `x-tampered` header added, also
 * on the stream), the header tolerated by a register entry. What the HTML report's browser test
 * and its screenshots are made from.
 */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { compareAll, emulatorInProcessTarget, type Evidence, Scenario } from "@hermetic/diff"
import { Effect, Schema } from "effect"

const scenariosDir = join(import.meta.dirname, "..", "..", "packages", "diff", "scenarios")

type Fetch = (url: string, init: RequestInit) => Promise<Response>

const tamper = (f: Fetch): Fetch => async (url, init) => {
  const res = await f(url, init)
  if (!url.includes("/v1/chat/completions") || res.status !== 200) return res
  const headers = new Headers(res.headers)
  headers.set("x-tampered", "yes")
  if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) return new Response(res.body, { status: res.status, headers })
  const body = (await res.json()) as Record<string, unknown>
  delete body["usage"]
  headers.delete("content-length")
  return new Response(JSON.stringify({ ...body, object: "chat.completion.tampered" }), { status: res.status, headers })
}

export const tamperedChatEvidence = async (): Promise<Evidence> => {
  const files = ["chat-completions.json", "health.json"]
  const scenarios = await Promise.all(
    files.map(async (name, position) => ({
      scenario: Schema.decodeUnknownSync(Scenario)(JSON.parse(await readFile(join(scenariosDir, name), "utf8"))),
      file: `packages/diff/scenarios/${name}`,
      position
    }))
  )
  return Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const reference = yield* emulatorInProcessTarget({ pin: "0.19.0" })
        const candidate = yield* emulatorInProcessTarget({ pin: "0.19.0", wrapFetch: tamper })
        return (yield* compareAll({
          reference,
          candidate,
          scenarios,
          register: { version: 1, entries: [{ id: "T-header", operation: "*", kind: "header", path: '$.response.headers["x-tampered"]', category: "gap", reason: "the test adds this header" }] },
          noiseMethod: "none",
          provenance: { emulatorCommit: "0123456789abcdef", emulatorDirty: false, node: process.version, runs: 0, command: "vitest" }
        })).evidence
      })
    )
  )
}
