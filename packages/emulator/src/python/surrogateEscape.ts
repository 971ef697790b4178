/**
 * `bytes.decode("utf-8", "surrogateescape")`: how aiohttp (and Python's http parsing) turns header
 * bytes into str. Each byte that is not part of a valid UTF-8 sequence becomes the lone surrogate
 * U+DC80..U+DCFF, which then fails any strict `encode()` (see pyUtf8Encodable).
 */

/** The length of the valid UTF-8 sequence at `i`, or 0 when its first byte starts none. */
const validSequenceLength = (bytes: Uint8Array, i: number): number => {
  const b = bytes[i] as number
  if (b < 0x80) return 1
  let need: number
  let lo = 0x80
  let hi = 0xbf
  if (b >= 0xc2 && b <= 0xdf) need = 1
  else if (b >= 0xe0 && b <= 0xef) {
    need = 2
    if (b === 0xe0) lo = 0xa0 // overlong
    if (b === 0xed) hi = 0x9f // encoded surrogates
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 3
    if (b === 0xf0) lo = 0x90 // overlong
    if (b === 0xf4) hi = 0x8f // beyond U+10FFFF
  } else return 0
  for (let k = 1; k <= need; k++) {
    const c = bytes[i + k]
    if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return 0
  }
  return need + 1
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
