import { Either } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { contentTypeCharset, pyJsonLoads, pyRequestText } from "../../src/python/index.js"

// Expected values come from CPython + aiohttp (see body_vectors.py).
type Rec = Record<string, unknown>
const records = readFileSync(fileURLToPath(new URL("./body-vectors.jsonl", import.meta.url)), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as Rec)
const ofKind = (k: string) => records.filter((r) => r["kind"] === k)
const hex = (h: string): Uint8Array => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16))

describe("aiohttp request.text()", () => {
  it("extracts charset from Content-Type like aiohttp", () => {
    for (const r of ofKind("charset")) {
      expect([r["ct"], contentTypeCharset(r["ct"] as string) ?? null]).toEqual([r["ct"], r["charset"]])
    }
  })

  it("resolves codec names like codecs.lookup (for the codecs we emulate)", () => {
    for (const r of ofKind("codec")) {
      const res = pyRequestText(new Uint8Array([0x41]), r["name"] as string)
      const emulated = r["codec"] !== null && r["codec"] !== "other"
      // Names Python maps elsewhere (or rejects) must not be decoded as if they were ours.
      expect([r["name"], Either.isRight(res)]).toEqual([r["name"], emulated])
    }
  })

  it("decodes bytes and reports UnicodeDecodeError exactly", () => {
    const recs = ofKind("decode")
    expect(recs.length).toBeGreaterThan(1000)
    for (const r of recs) {
      const res = pyRequestText(hex(r["hex"] as string), r["enc"] as string)
      const got = Either.isRight(res) ? { text: res.right } : { err: res.left.message }
      const want = r["err"] !== undefined ? { err: r["err"] } : { text: r["text"] }
      expect([r["hex"], r["enc"], got]).toEqual([r["hex"], r["enc"], want])
    }
  })

  it("keeps a UTF-8 BOM, which json.loads then rejects", () => {
    const text = Either.getOrThrow(pyRequestText(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), undefined))
    const res = pyJsonLoads(text)
    expect(Either.isLeft(res) && res.left.message).toBe(
      "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"
    )
  })
})
