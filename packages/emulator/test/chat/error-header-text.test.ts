/**
 * X-Hermes-Error carries the model's error text; aiohttp writes a header's text as UTF-8 bytes.
 * Over node:http the emulator must put the same bytes on the wire, and in process fetch's Headers
 * (ByteString only) must take the value and give back what a latin1 reader of those bytes sees.
 */
import { Effect } from "effect"
import { request as httpRequest } from "node:http"
import { describe, expect, it } from "vitest"
import { layer } from "../../src/index.js"
import { Emulator } from "../../src/Emulator.js"
import { headerText } from "../../src/http/HeaderText.js"
import { ADMIN_HEADERS, API_KEY, startClient } from "../support.js"

const failing = (message: string) => ({ turns: [{ replies: [{ error: { status: 400, message } }] }] })
const chat = { messages: [{ role: "user", content: "fail" }] }
const utf8AsLatin1 = (s: string) => Buffer.from(s, "utf8").toString("latin1")

describe("headerText", () => {
  it("is the text's UTF-8 bytes, one char per byte", () => {
    expect(headerText("plain")).toBe("plain")
    expect(headerText("café")).toBe("caf\u00c3\u00a9")
    expect(headerText("模")).toBe("\u00e6\u00a8\u00a1")
    expect(headerText("💥")).toBe("\u00f0\u009f\u0092\u00a5")
    expect(headerText("\u007f\u0080\u07ff\u0800\uffff")).toBe(utf8AsLatin1("\u007f\u0080\u07ff\u0800\uffff"))
  })

  it("drops lone surrogates, as aiohttp's header writer does", () => {
    expect(headerText("a\ud800b\udc00c")).toBe("abc")
  })
})

/** The raw bytes of one response header, read off the socket. */
const rawHeaderBytes = (url: string, name: string): Promise<Buffer | undefined> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(new URL("/v1/chat/completions", url), {
      method: "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" }
    }, (res) => {
      res.resume()
      res.on("end", () => {
        const i = res.rawHeaders.findIndex((h, j) => j % 2 === 0 && h.toLowerCase() === name)
        // node reads header bytes as latin1: back to the bytes
        resolve(i < 0 ? undefined : Buffer.from(res.rawHeaders[i + 1]!, "latin1"))
      })
    })
    req.on("error", reject)
    req.end(JSON.stringify(chat))
  })

describe("X-Hermes-Error with text that is not ASCII", () => {
  it("goes out over node:http as the UTF-8 bytes of the summary", async () => {
    const c = await startClient({ hermesVersion: "0.19.0" })
    try {
      for (const message of ["model refused 💥 this", "café crème", "plain"]) {
        await c.script(failing(message))
        const bytes = await rawHeaderBytes(c.emu.url, "x-hermes-error")
        expect(bytes?.toString("utf8")).toBe(`HTTP 400: ${message}`)
      }
    } finally {
      await c.emu.close()
    }
  })

  it("in process: the answer is made, and the header reads as the same bytes read as latin1", async () => {
    const program = Effect.gen(function*() {
      const emu = yield* Emulator
      yield* Effect.promise(() =>
        emu.fetch("http://emulator/__admin/script", { method: "POST", headers: ADMIN_HEADERS, body: JSON.stringify(failing("refused 💥")) })
      )
      const res = yield* Effect.promise(() =>
        emu.fetch("http://emulator/v1/chat/completions", {
          method: "POST",
          headers: { authorization: `Bearer ${API_KEY}` },
          body: JSON.stringify(chat)
        })
      )
      const body = (yield* Effect.promise(() => res.json())) as { hermes: { error: string } }
      return { status: res.status, header: res.headers.get("x-hermes-error"), error: body.hermes.error }
    })
    const out = await Effect.runPromise(Effect.scoped(Effect.provide(program, layer({ apiKey: API_KEY, hermesVersion: "0.19.0" }))))
    expect(out.status).toBe(200)
    expect(out.error).toBe("HTTP 400: refused 💥")
    expect(out.header).toBe(utf8AsLatin1("HTTP 400: refused 💥"))
  })
})
