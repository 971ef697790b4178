/**
 * The `generatedBody` request form: `size` bytes of one filler character, made when the request is
 * sent. What is recorded (the cassette, the evidence) is a description of the body, the same on
 * every target, so two plays line up without either holding 10 MB of filler.
 */
import type { HttpRequestSpec } from "./Scenario.js"

export type GeneratedBody = NonNullable<HttpRequestSpec["generatedBody"]>

const CHUNK = 64 * 1024

/** What the wire record says instead of the bytes. */
export const describeGeneratedBody = (g: GeneratedBody): string =>
  `<generated: ${g.size} bytes of ${JSON.stringify(g.filler ?? "x")}${g.chunked === true ? ", chunked" : ""}>`

/**
 * The body for fetch: one string or buffer (fetch sends a Content-Length), or a stream of 64 KiB
 * chunks (fetch sends Transfer-Encoding: chunked and needs `duplex: "half"`). An ASCII filler goes
 * as a string, the same bytes: the in-process emulator target then takes its string-body path,
 * where it adds the Content-Length fetch would add, so a declared length over the limit judges it.
 */
export const generatedBodyInit = (g: GeneratedBody): { body: BodyInit; duplex?: "half" } => {
  const filler = g.filler ?? "x"
  if (g.chunked !== true) return { body: filler.charCodeAt(0) < 0x80 ? filler.repeat(g.size) : Buffer.alloc(g.size, filler) }
  let left = g.size
  const chunk = Buffer.alloc(Math.min(CHUNK, g.size), filler)
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left <= 0) return controller.close()
      const n = Math.min(left, chunk.length)
      left -= n
      controller.enqueue(n === chunk.length ? chunk : chunk.subarray(0, n))
    }
  })
  return { body: stream, duplex: "half" }
}
