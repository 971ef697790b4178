/**
 * `bytes.decode("utf-8", "surrogateescape")`: how aiohttp (and Python's http parsing) turns header
 * bytes into str. Each byte that is not part of a valid UTF-8 sequence becomes the lone surrogate
 * U+DC80..U+DCFF, which then fails any strict `encode()` (see pyUtf8Encodable).
 */

import { utf8SequenceAt } from "./utf8Sequence.js"

/** The length of the valid UTF-8 sequence at `i`, or 0 when it is not one. */
const validSequenceLength = (bytes: Uint8Array, i: number): number => {
  const seq = utf8SequenceAt(bytes, i)
  return "length" in seq ? seq.length : 0
}

const utf8 = new TextDecoder("utf-8")

export const pyDecodeSurrogateEscape = (bytes: Uint8Array): string => {
  let out = ""
  let i = 0
  while (i < bytes.length) {
    const n = validSequenceLength(bytes, i)
    if (n === 0) {
      out += String.fromCharCode(0xdc00 + (bytes[i] as number))
      i++
    } else {
      out += n === 1 ? String.fromCharCode(bytes[i] as number) : utf8.decode(bytes.subarray(i, i + n))
      i += n
    }
  }
  return out
}

/** A header value as node:http gives it (one char per byte, latin-1) the way aiohttp gives it. */
export const pyHeaderText = (latin1: string): string =>
  // plain ASCII, the usual case, reads the same either way
  /^[\x00-\x7f]*$/.test(latin1) ? latin1 : pyDecodeSurrogateEscape(Buffer.from(latin1, "latin1"))
