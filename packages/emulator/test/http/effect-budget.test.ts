/**
 * The request path's Effect work, counted rather than timed (timings belong to the bench): a
 * supervisor with op supervision on sees every fiber started and every Effect op run. A poll of a
 * settled run must start no fiber at all (http/Immediate.ts: an answer ready at once stays an
 * Exit), and a run's admission and background turn keep to a budget — the fibers and ops counted
 * when the budget was set (2 fibers; 83 ops for a run, 86 for a keyed one, on 0.21.0; 76 and 79 since the
 * interrupt signal stopped being a Deferred), with some room. A change that adds a
 * fiber per request, or a few dozen ops, shows here first.
 */
import { Effect, Layer, ManagedRuntime, RuntimeFlags, Supervisor } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Emulator, type EmulatorShape, layer } from "../../src/Emulator.js"
import type { StorageOpenError } from "../../src/services/Storage.js"
import { API_KEY } from "../support.js"

class Counting extends Supervisor.AbstractSupervisor<void> {
  fibers = 0
  ops = 0
  get value() {
    return Effect.void
  }
  override onStart() {
    this.fibers++
  }
  override onEffect() {
    this.ops++
  }
}

const encoder = new TextEncoder()
const request = (method: string, path: string, body = "", headers: Record<string, string> = {}) => ({
  method,
  path,
  query: new URLSearchParams(),
  headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json", ...headers },
  body: encoder.encode(body),
  aborted: new Promise<void>(() => undefined)
})
const settle = () => new Promise((resolve) => setTimeout(resolve, 50))

describe("Effect work per request (counted)", () => {
  const counting = new Counting()
  let runtime: ManagedRuntime.ManagedRuntime<Emulator, StorageOpenError>
  let emu: EmulatorShape
  let runId = ""
  beforeAll(async () => {
    runtime = ManagedRuntime.make(
      layer({ apiKey: API_KEY, hermesVersion: "0.21.0" }).pipe(
        Layer.provide(Supervisor.addSupervisor(counting)),
        Layer.provide(RuntimeFlags.enableOpSupervision)
      )
    )
    emu = await runtime.runPromise(Emulator)
    const first = await emu.respond(request("POST", "/v1/runs", '{"input":"hi"}'))
    runId = (JSON.parse(new TextDecoder().decode((first.body as { bytes: Uint8Array }).bytes)) as { run_id: string }).run_id
    await settle()
  })
  afterAll(() => runtime.dispose())

  /** Fibers and ops per request over `n` requests, the background work they started included. */
  const measure = async (n: number, make: (i: number) => ReturnType<typeof request>, expectStatus: number) => {
    await settle()
    counting.fibers = 0
    counting.ops = 0
    for (let i = 0; i < n; i++) expect((await emu.respond(make(i))).status).toBe(expectStatus)
    await settle()
    return { fibers: counting.fibers / n, ops: counting.ops / n }
  }

  it("a poll of a settled run starts no fiber and runs no op", async () => {
    const get = await measure(50, () => request("GET", `/v1/runs/${runId}`), 200)
    expect(get).toEqual({ fibers: 0, ops: 0 })
  })

  it("a run (admission, then its turn in the background) keeps to 2 fibers and 100 ops", async () => {
    const post = await measure(50, () => request("POST", "/v1/runs", '{"input":"hi"}'), 202)
    expect(post.fibers).toBeLessThanOrEqual(2)
    expect(post.ops).toBeGreaterThan(0)
    expect(post.ops).toBeLessThanOrEqual(100)
  })

  it("a keyed run keeps to 2 fibers and 100 ops", async () => {
    const keyed = await measure(50, (i) => request("POST", "/v1/runs", '{"input":"hi"}', { "idempotency-key": `budget-${i}` }), 202)
    expect(keyed.fibers).toBeLessThanOrEqual(2)
    expect(keyed.ops).toBeLessThanOrEqual(100)
  })
})
