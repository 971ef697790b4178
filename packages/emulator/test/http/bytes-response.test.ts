/**
 * The in-process fetch answers with a BytesResponse (http/BytesResponse.ts): a Response whose body
 * stream is made only when asked for. Each read here runs on it and on a real Response made from
 * the same bytes, and the two must agree: values, `bodyUsed`, the error of a second read, clones.
 */
import { ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { Emulator, layer } from "../../src/Emulator.js"
import { bytesResponse } from "../../src/http/BytesResponse.js"
import { API_KEY } from "../support.js"

const BOM_JSON = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"a": [1, "é"]}')])
const init = () => ({ status: 201, statusText: "Created", headers: { "content-type": "application/json; charset=utf-8", "x-one": "1" } })
const pair = () => [bytesResponse(BOM_JSON, init()), new Response(BOM_JSON, init())] as const

type Read = (r: Response) => Promise<unknown>
const reads: Record<string, Read> = {
  text: (r) => r.text(),
  json: (r) => r.json(),
  arrayBuffer: async (r) => [...new Uint8Array(await r.arrayBuffer())],
  bytes: async (r) => [...(await r.bytes())],
  blob: async (r) => {
    const b = await r.blob()
    return [b.type, [...new Uint8Array(await b.arrayBuffer())]]
  },
  "body stream": async (r) => {
    const reader = (r.body as ReadableStream<Uint8Array>).getReader()
    const chunks: Array<number> = []
    for (let c = await reader.read(); !c.done; c = await reader.read()) chunks.push(...c.value)
    return chunks
  }
}
const outcome = async (f: () => Promise<unknown>) => {
  try {
    return { value: await f() }
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}` }
  }
}

describe("BytesResponse reads as a real Response does", () => {
  for (const [name, read] of Object.entries(reads)) {
    it(`${name}: the same value, then the same error on a second read`, async () => {
      const [ours, real] = pair()
      expect(ours).toBeInstanceOf(Response)
      expect([ours.status, ours.statusText, ours.ok, ours.headers.get("x-one"), ours.bodyUsed]).toEqual([real.status, real.statusText, real.ok, real.headers.get("x-one"), real.bodyUsed])
      expect(await outcome(() => read(ours))).toEqual(await outcome(() => read(real)))
      expect(ours.bodyUsed).toBe(real.bodyUsed)
      for (const again of Object.values(reads).filter((r) => r !== reads["body stream"])) {
        expect(await outcome(() => again(ours))).toEqual(await outcome(() => again(real)))
      }
      expect(await outcome(async () => ours.clone())).toEqual(await outcome(async () => real.clone()))
    })
  }

  it("a clone before any read reads the same bytes on its own, and leaves the original readable", async () => {
    const [ours, real] = pair()
    const [oc, rc] = [ours.clone(), real.clone()]
    expect(await oc.text()).toBe(await rc.text())
    expect(await ours.json()).toEqual(await real.json())
    expect([ours.bodyUsed, oc.bodyUsed]).toEqual([real.bodyUsed, rc.bodyUsed])
  })

  it("an arrayBuffer is a copy: writing to it changes nothing read later", async () => {
    const ours = bytesResponse(BOM_JSON, init())
    const copy = ours.clone()
    new Uint8Array(await ours.arrayBuffer()).fill(0)
    expect(await copy.json()).toEqual({ a: [1, "é"] })
  })
})

describe("the in-process fetch", () => {
  const runtime = ManagedRuntime.make(layer({ apiKey: API_KEY, hermesVersion: "0.21.0" }))
  afterAll(() => runtime.dispose())

  it("answers a JSON route with a Response that reads as JSON, as text and as a stream", async () => {
    const emu = await runtime.runPromise(Emulator)
    const get = () => emu.fetch("http://emulator/health")
    const asJson = await (await get()).json()
    expect(asJson).toMatchObject({ status: "ok" })
    expect(JSON.parse(await (await get()).text())).toEqual(asJson)
    const streamed = await get()
    expect(JSON.parse(await new Response(streamed.body).text())).toEqual(asJson)
    expect(streamed.bodyUsed).toBe(true)
  })
})
