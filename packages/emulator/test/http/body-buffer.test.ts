/** A body over a MiB goes to an anonymous temporary file and comes back byte for byte. */
import { readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { describe, expect, it } from "vitest"
import { BodyBuffer, IN_MEMORY_BYTES } from "../../src/http/BodyBuffer.js"

const spilled = () => readdirSync(tmpdir()).filter((f) => f.startsWith(`hermetic-body-${process.pid}-`))

describe("BodyBuffer", () => {
  it("keeps the first MiB in memory and the rest in a file no directory lists, and gives the body back whole", () => {
    const body = Buffer.alloc(3 * IN_MEMORY_BYTES + 12_345)
    for (let i = 0; i < body.length; i++) body[i] = (i * 31 + (i >> 16)) & 0xff
    const buffer = new BodyBuffer()
    for (let at = 0; at < body.length; at += 65_536) buffer.add(body.subarray(at, at + 65_536))
    expect(buffer.size).toBe(body.length)
    expect(spilled()).toEqual([])
    const back = buffer.bytes()
    expect(Buffer.compare(Buffer.from(back), body)).toBe(0)
    expect(buffer.size).toBe(0)
  })

  it("a small body never touches a file; discard empties it", () => {
    const buffer = new BodyBuffer()
    buffer.add(Buffer.from("{\"a\": 1}"))
    expect(Buffer.from(buffer.bytes()).toString()).toBe("{\"a\": 1}")
    buffer.add(Buffer.alloc(2 * IN_MEMORY_BYTES))
    buffer.discard()
    expect(buffer.size).toBe(0)
    expect(buffer.bytes().byteLength).toBe(0)
  })
})
