/**
 * The one UTF-8 well-formedness scan (Unicode Table 3-7, as CPython's decoder applies it) behind
 * both strict decoding's error messages (requestText) and surrogateescape decoding (surrogateEscape).
 */

export type Utf8Sequence =
  | { readonly length: number }
  /** `end`: where CPython's maximal-subpart rule ends the bad bytes (exclusive). */
  | { readonly error: "invalid start byte" | "unexpected end of data" | "invalid continuation byte"; readonly end: number }

/** The sequence that starts at `i`: its length when well formed, else why and where it breaks. */
export const utf8SequenceAt = (bytes: Uint8Array, i: number): Utf8Sequence => {
  const b = bytes[i] as number
  if (b < 0x80) return { length: 1 }
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
  } else return { error: "invalid start byte", end: i + 1 }
  for (let k = 1; k <= need; k++) {
    const j = i + k
    if (j >= bytes.length) return { error: "unexpected end of data", end: bytes.length }
    const c = bytes[j] as number
    if (c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return { error: "invalid continuation byte", end: j }
  }
  return { length: need + 1 }
}
