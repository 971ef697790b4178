/**
 * Storage, Faults, Ids and Agent are replaceable: a program provides its own and the emulator's
 * HTTP surface uses them (a provided service wins over the default and over the `seed` option);
 * Faults and the Script are driven as Effects, not over the admin plane.
 */
import { expect, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { Effect, Exit, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Agent, DEFAULT_NAMESPACE, Emulator, Faults, type FaultsShape, IdsRandom, IdsSeeded, layer, Storage, storageLayer } from "../../src/index.js"
import type { LayerOverrides } from "../../src/Emulator.js"
import { makeAgent } from "../../src/services/Agent.js"
import { makeFaults } from "../../src/services/Faults.js"

const API_KEY = "test-key-0123456789abcdef"
const HEADERS = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" }

const request = (method: string, path: string, body?: unknown) =>
  Effect.flatMap(Emulator, (emu) =>
    Effect.promise(async () => {
      const res = await emu.fetch(`http://emulator${path}`, { method, headers: HEADERS, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      return { status: res.status, body: (await res.json()) as Record<string, unknown> }
    }))

const chat = (text: string) => request("POST", "/v1/chat/completions", { model: "hermes-agent", messages: [{ role: "user", content: text }] })

/** The id of one chat completion answered by an emulator built with `provided` under it. */
const firstChatId = (provided: Layer.Layer<never>, overrides: LayerOverrides) =>
  Effect.scoped(
    Effect.gen(function*() {
      yield* Agent.script(DEFAULT_NAMESPACE, { turns: [{ replies: [{ text: "hi" }] }] })
      return (yield* chat("hello")).body["id"]
    }).pipe(Effect.provide(layer({ apiKey: API_KEY }, overrides).pipe(Layer.provide(provided))))
  )

it.scoped("a program's own Faults answer for the HTTP surface, and Faults.add arms them as an Effect", () => {
  const seen: Array<string> = []
  // the default faults, watched: every request the app dispatches asks them
  const watched = Layer.sync(Faults, (): FaultsShape => {
    const inner = makeFaults()
    return { ...inner, take: (ns, m) => (seen.push(`${m.method} ${m.path}`), inner.take(ns, m)) }
  })
  return Effect.gen(function*() {
    yield* Faults.add(DEFAULT_NAMESPACE, { path: "/v1/models", status: 503, body: { error: "injected" } })
    const faulted = yield* request("GET", "/v1/models")
    const next = yield* request("GET", "/v1/models")
    expect([faulted.status, faulted.body]).toEqual([503, { error: "injected" }])
    expect(next.status).toBe(200)
    expect(seen).toEqual(["GET /v1/models", "GET /v1/models"])
    expect(yield* Faults.list(DEFAULT_NAMESPACE)).toEqual([])
  }).pipe(Effect.provide(layer({ apiKey: API_KEY }).pipe(Layer.provide(watched))))
})

it.effect("a program's own seeded Ids make the ids the HTTP surface answers with, over the seed option", () =>
  Effect.gen(function*() {
    const providedSeven = yield* firstChatId(IdsSeeded(7), { seed: 1 })
    const optionSeven = yield* firstChatId(Layer.empty, { seed: 7 })
    const optionOne = yield* firstChatId(Layer.empty, { seed: 1 })
    // the default random Ids, provided, win over the seed option too
    const providedRandom = yield* firstChatId(IdsRandom, { seed: 7 })
    expect(providedSeven).toMatch(/^chatcmpl-[0-9a-f]{29}$/)
    expect(providedSeven).toBe(optionSeven)
    expect(providedSeven).not.toBe(optionOne)
    expect(providedRandom).not.toBe(optionSeven)
  }))

it.scoped("the Script a program appends to its own Agent, as an Effect, is what the HTTP surface plays", () => {
  const agent = makeAgent()
  return Effect.gen(function*() {
    expect(yield* agent.script(DEFAULT_NAMESPACE, { turns: [{ replies: [{ text: "from the program's agent" }] }] })).toBe(1)
    expect(yield* Agent.script(DEFAULT_NAMESPACE, { turns: [{ replies: [{ text: "through the accessor" }] }] })).toBe(2)
    const first = yield* chat("one")
    const second = yield* chat("two")
    const content = (r: typeof first) => (r.body["choices"] as Array<{ message: { content: string } }>)[0]?.message.content
    expect([content(first), content(second)]).toEqual(["from the program's agent", "through the accessor"])
    expect((yield* agent.player(DEFAULT_NAMESPACE).view).heldCalls).toEqual([])
  }).pipe(Effect.provide(layer({ apiKey: API_KEY }).pipe(Layer.provide(Layer.succeed(Agent, agent)))))
})

it.scoped("a Storage layer at another path holds what the emulator stores", () => {
  const dir = mkdtempSync(join(tmpdir(), "hermetic-storage-"))
  const file = join(dir, "elsewhere.sqlite")
  return Effect.gen(function*() {
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
    yield* Effect.scoped(
      Effect.gen(function*() {
        yield* Agent.script(DEFAULT_NAMESPACE, { turns: [{ replies: [{ text: "kept" }] }] })
        const created = yield* request("POST", "/v1/responses", { input: "store me" })
        expect(created.status).toBe(200)
        const db = new Database(file, { readonly: true })
        const rows = db.prepare("SELECT response_id FROM stored_responses").all() as Array<{ response_id: string }>
        db.close()
        expect(rows.map((r) => r.response_id)).toEqual([created.body["id"]])
      }).pipe(Effect.provide(layer({ apiKey: API_KEY }).pipe(Layer.provide(storageLayer(file)))))
    )
  })
})

it.effect("a Storage provided without its SqlClient stops the start with the reason", () =>
  Effect.gen(function*() {
    const half = Layer.provide(Layer.effect(Storage, Storage), storageLayer(":memory:"))
    const exit = yield* Effect.exit(Effect.scoped(Layer.build(layer({ apiKey: API_KEY }).pipe(Layer.provide(half)))))
    expect(Exit.isFailure(exit) && String(exit.cause)).toContain("needs the SqlClient on the same database")
  }))
