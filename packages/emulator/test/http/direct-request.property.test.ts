/**
 * The in-process fetch's fast path (WebAdapter.directRequest) is only a shortcut: for every call it
 * takes, it must build the request the web Request path (toEmuRequest) builds, so that leaving it
 * cannot change what a route sees. And the fetch handler as a whole hands a route that same request
 * whichever of fetch's forms carries the headers (a record, a Headers object, an array of pairs).
 */
import { Runtime } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { directRequest, makeFetch, toEmuRequest } from "../../src/http/WebAdapter.js"
import { type EmuRequest, jsonResponse } from "../../src/http/Exchange.js"
import { propertyParams } from "../../../../test/support/propertySeed.js"

const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/)
// visible ASCII and spaces, with HTTP whitespace around it that both paths trim
const headerValue = fc.tuple(fc.constantFrom("", " ", "\t", "  "), fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,20}[\x21-\x7e])?$/), fc.constantFrom("", " ", "\t"))
  .map(([a, v, b]) => `${a}${v}${b}`)
const call = fc.record({
  method: fc.constantFrom("GET", "get", "POST", "post", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"),
  path: fc.constantFrom("/v1/runs", "/api/sessions/s%20x", "/health?x=1&y=%C3%A9", "/p/default/v1/models"),
  headers: fc.dictionary(token, headerValue, { maxKeys: 5 }),
  body: fc.option(fc.string({ unit: "binary", maxLength: 40 }), { nil: undefined })
})

const view = (r: EmuRequest) => ({
  method: r.method,
  path: r.path,
  query: r.query.toString(),
  headers: r.headers,
  body: [...r.body]
})

describe("the in-process fetch's fast path", () => {
  it("builds what the web Request path builds from the same call", async () => {
    await fc.assert(
      fc.asyncProperty(call, async ({ method, path, headers, body }) => {
        // a body on GET or HEAD is Request's TypeError: the fast path declines it too
        const sent = method.toUpperCase() === "GET" || method.toUpperCase() === "HEAD" ? undefined : body
        // a header record cannot repeat a name, and Headers joins case-variants of one name
        const names = new Set<string>()
        const unique = Object.fromEntries(Object.entries(headers).filter(([n]) => !names.has(n.toLowerCase()) && names.add(n.toLowerCase())))
        const url = `http://emulator.local${path}`
        const init: RequestInit = { method, headers: unique, ...(sent === undefined ? {} : { body: sent }) }
        const direct = directRequest(url, init)
        expect(direct).toBeDefined()
        const viaRequest = await toEmuRequest(new Request(url, init))
        expect(view(direct as EmuRequest)).toEqual(view(viaRequest))
      }),
      propertyParams(20261204, { numRuns: 300 })
    )
  })

  it("hands a route the Request path's request whatever form carries the headers", async () => {
    await fc.assert(
      fc.asyncProperty(call, fc.constantFrom("record", "Headers", "pairs"), async ({ method, path, headers, body }, form) => {
        const sent = method.toUpperCase() === "GET" || method.toUpperCase() === "HEAD" ? undefined : body
        const names = new Set<string>()
        const unique = Object.entries(headers).filter(([n]) => !names.has(n.toLowerCase()) && names.add(n.toLowerCase()))
        const carried: HeadersInit = form === "record" ? Object.fromEntries(unique) : form === "Headers" ? new Headers(unique) : unique
        const url = `http://emulator.local${path}`
        const init: RequestInit = { method, headers: carried, ...(sent === undefined ? {} : { body: sent }) }
        let seen: EmuRequest | undefined
        const fetchEmu = makeFetch((req) => {
          seen = req
          return jsonResponse({}, 200)
        }, Runtime.defaultRuntime)
        expect((await fetchEmu(url, init)).status).toBe(200)
        const viaRequest = await toEmuRequest(new Request(url, init))
        expect(view(seen as EmuRequest)).toEqual(view(viaRequest))
      }),
      propertyParams(20261205, { numRuns: 300 })
    )
  })

  it("leaves to the Request path what it does not take: a Request, a signal, a Headers object, a non-string body", () => {
    const url = "http://emulator.local/v1/runs"
    expect(directRequest(new Request(url), undefined)).toBeUndefined()
    expect(directRequest(url, { signal: new AbortController().signal })).toBeUndefined()
    expect(directRequest(url, { headers: new Headers({ a: "b" }) })).toBeUndefined()
    expect(directRequest(url, { headers: [["a", "b"]] })).toBeUndefined()
    expect(directRequest(url, { method: "POST", body: new Uint8Array([1]) })).toBeUndefined()
    expect(directRequest(url, { method: "GET", body: "x" })).toBeUndefined()
  })
})
