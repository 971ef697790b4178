/**
 * What a request leaves in V8's old generation once it is over, measured rather than timed: old
 * space before and after a few requests, each side of two young-generation collections. Only a
 * full collection frees what got there, so a request that leaves its graph behind (a generator
 * function made per call, Effect.ensuring / onExit / uninterruptible / promise on its path: see
 * docs/performance.md, "What a request leaves behind") costs every request after it scavenge time
 * and, later, a major collection. Budgets from what was measured when they were set (Node 20):
 * a run keeps ~800 B for 300 s as upstream keeps its status and events, and left 10.4 KB in old
 * space before the retention fixes, 3.4 KB after; a poll of a settled run and a refused body ~0.5 KB;
 * a chat completion 3.2 KB while its turn was counted in flight through Effect.ensuring, 0.6 KB after;
 * a streamed chat completion ~120 KB while the route waited on the client's going away through
 * `Effect.promise`, ~45 KB after, of which ~40 KB is any `Stream.runForEach` of
 * Effect 3.22 (bench/tools/stream-retention.ts).
 */
import { Effect, ManagedRuntime, Stream } from "effect"
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Emulator, type EmulatorShape, layer } from "../../src/Emulator.js"
import type { StorageOpenError } from "../../src/services/Storage.js"
import { API_KEY } from "../support.js"

setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as (options: { readonly type: "minor" | "major" }) => void
const oldSpace = () =>
  getHeapSpaceStatistics()
    .filter((s) => s.space_name === "old_space" || s.space_name === "large_object_space")
    .reduce((n, s) => n + s.space_used_size, 0)

const encoder = new TextEncoder()
const request = (method: string, path: string, body = "") => ({
  method,
  path,
  query: new URLSearchParams(),
  headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
  body: encoder.encode(body),
  aborted: new Promise<void>(() => undefined)
})
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
  await new Promise((resolve) => setTimeout(resolve, 2))
}

describe("what a request leaves in the old generation", () => {
  let runtime: ManagedRuntime.ManagedRuntime<Emulator, StorageOpenError>
  let emu: EmulatorShape
  let runId = ""
  beforeAll(async () => {
    runtime = ManagedRuntime.make(layer({ apiKey: API_KEY, hermesVersion: "0.21.0", maxConcurrentRuns: 0 }))
    emu = await runtime.runPromise(Emulator)
    const first = await emu.respond(request("POST", "/v1/runs", '{"input":"hi"}'))
    runId = (JSON.parse(new TextDecoder().decode((first.body as { bytes: Uint8Array }).bytes)) as { run_id: string }).run_id
  })
  afterAll(() => runtime.dispose())

  /** One request, its event stream (if it answers with one) read to its end. */
  const answer = async (req: ReturnType<typeof request>) => {
    const res = await emu.respond(req)
    if (res.body._tag === "sse") await Effect.runPromise(Stream.runDrain(res.body.frames))
  }

  /** Median old-space growth per request, over 15 rounds of 4 requests each (after 200 to warm up). */
  const leftPerRequest = (make: () => ReturnType<typeof request>) => leftPerCall(() => answer(make()))

  /** Median old-space growth per call of `call`, over 15 rounds of 4 calls each (after 200 to warm up). */
  const leftPerCall = async (call: () => Promise<unknown>) => {
    const answer = call
    for (let i = 0; i < 200; i++) await answer()
    await settle()
    gc({ type: "major" })
    const growth: Array<number> = []
    for (let round = 0; round < 15; round++) {
      await settle()
      gc({ type: "minor" })
      gc({ type: "minor" })
      const before = oldSpace()
      for (let i = 0; i < 4; i++) await answer()
      await settle()
      gc({ type: "minor" })
      gc({ type: "minor" })
      growth.push((oldSpace() - before) / 4)
    }
    return growth.sort((a, b) => a - b)[7]!
  }

  it("a run leaves under 5 KB (its ~800 B of status and events included)", async () => {
    const left = await leftPerRequest(() => request("POST", "/v1/runs", '{"input":"hi"}'))
    expect(left).toBeLessThan(5_000)
  })

  it("a poll of a settled run and a refused body leave under 1.5 KB", async () => {
    expect(await leftPerRequest(() => request("GET", `/v1/runs/${runId}`))).toBeLessThan(1_500)
    expect(await leftPerRequest(() => request("POST", "/v1/runs", '{"input":'))).toBeLessThan(1_500)
  })

  it("a chat completion (its turn counted in flight, its messages stored) leaves under 1.5 KB", async () => {
    const chat = '{"model":"hermes-agent","messages":[{"role":"user","content":"hi"}]}'
    expect(await leftPerRequest(() => request("POST", "/v1/chat/completions", chat))).toBeLessThan(1_500)
  })

  // Node 24.22 (V8 13): bare stream 50.8 KB, streamed chat 78.1 KB, so 27.3 KB on top; the regression
  // this guards against (the route waiting on the client through Effect.promise) added ~80 KB
  it("a streamed chat completion, read to its end, leaves under 35 KB more than a bare Stream.runForEach does", async () => {
    const chat = '{"model":"hermes-agent","messages":[{"role":"user","content":"hi"}],"stream":true}'
    const bareStream = await leftPerCall(() => Effect.runPromise(Stream.runForEach(Stream.make(1, 2, 3), () => Effect.void)))
    const streamed = await leftPerRequest(() => request("POST", "/v1/chat/completions", chat))
    // the bare stream’s own retention is what this Node's V8 and Effect keep: tens of KB, never zero
    expect(bareStream).toBeGreaterThan(10_000)
    expect(streamed - bareStream).toBeLessThan(35_000)
  })
})
