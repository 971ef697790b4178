/**
 * A malformed request as bytes on the wire: the fuzz mode sends the very same bytes to the real
 * gateway and to the emulator (fetch cannot send most of them: bad methods, raw bytes in paths and
 * headers, duplicate headers, lying Content-Length, oversized chunked bodies).
 */

/** What a case probes; the report counts cases and divergences per family. */
export type FuzzFamily =
  | "method"
  | "path"
  | "invalid-json"
  | "wrong-types"
  | "deep-nesting"
  | "oversize"
  | "invalid-utf8"
  | "content-type"
  | "duplicate-headers"
  | "long-header"
  | "auth"

export interface FuzzCase {
  readonly id: number
  readonly family: FuzzFamily
  /**
   * What is odd about it, then the request itself exactly (`describeRequest`): two cases share a
   * label only if they send the same bytes, so a label can stand for its request in a reference.
   */
  readonly label: string
  readonly method: string
  /** The request target as sent: path and query, raw (may hold bytes that are not UTF-8). */
  readonly target: Uint8Array
  /** Header lines after Host, raw. `{{KEY}}` in a value is the target's API key. */
  readonly headers: ReadonlyArray<readonly [string, Uint8Array]>
  readonly body:
    | { readonly _tag: "none" }
    | { readonly _tag: "bytes"; readonly bytes: Uint8Array }
    /** A Content-Length header is sent as given, with no body: the server must answer without it. */
    | { readonly _tag: "declared-only"; readonly contentLength: string }
    /** `size` zero bytes sent chunked, as fast as the server reads them. */
    | { readonly _tag: "chunked-zeros"; readonly size: number }
}

const KEY_MARK = Buffer.from("{{KEY}}")

/** A repeated stretch covering this many characters or more is written `⟨unit×n⟩`. */
const RUN = 12
/** The longest unit looked for (`{"a":` of nested objects is 5). */
const MAX_UNIT = 8

/**
 * Bytes as readable text, one-to-one: printable ASCII as is, a backslash as `\\`, any other byte as
 * `\xHH`, and a long repetition of a short unit as `⟨unit×n⟩` (⟨, × and ⟩ are not ASCII, so no
 * input writes them, and the text decodes back to exactly one byte string).
 */
export const showBytes = (b: Uint8Array): string => {
  const chars = Array.from(b, (x) => x === 0x5c ? "\\\\" : x >= 0x20 && x < 0x7f ? String.fromCharCode(x) : `\\x${x.toString(16).padStart(2, "0")}`)
  let out = ""
  for (let i = 0; i < chars.length;) {
    let best = { unit: 1, times: 1 }
    for (let unit = 1; unit <= MAX_UNIT && i + 2 * unit <= chars.length; unit++) {
      let times = 1
      while (i + (times + 1) * unit <= chars.length && chars.slice(i + times * unit, i + (times + 1) * unit).every((ch, k) => ch === chars[i + k])) times++
      if (times > 1 && unit * times > best.unit * best.times) best = { unit, times }
    }
    if (best.unit * best.times >= RUN) {
      out += `⟨${chars.slice(i, i + best.unit).join("")}×${best.times}⟩`
      i += best.unit * best.times
    } else {
      out += chars[i]
      i++
    }
  }
  return out
}

/** The body as written in a label: its bytes shown, or what is declared or streamed instead. */
export const describeBody = (body: FuzzCase["body"]): string =>
  body._tag === "none"
    ? "no body"
    : body._tag === "bytes"
    ? `body ${showBytes(body.bytes)}`
    : body._tag === "declared-only"
    ? `Content-Length ${showBytes(Buffer.from(body.contentLength))} and no body`
    : `${body.size} zero bytes chunked`

/** Everything that goes on the wire, written out exactly (the key as `{{KEY}}`). */
export const describeRequest = (c: Pick<FuzzCase, "method" | "target" | "headers" | "body">): string => {
  const headers = c.headers.map(([name, value]) => `${name}: ${showBytes(value)}`).join(" | ")
  return `${c.method} ${showBytes(c.target)} {${headers}} ${describeBody(c.body)}`
}

const withKey = (value: Uint8Array, key: string): Buffer => {
  const v = Buffer.from(value)
  const at = v.indexOf(KEY_MARK)
  return at < 0 ? v : Buffer.concat([v.subarray(0, at), Buffer.from(key), v.subarray(at + KEY_MARK.length)])
}

/** The request head (request line and headers, ending in the blank line) for one target. */
export const requestHead = (c: FuzzCase, key: string): Buffer => {
  const lines: Array<Buffer> = [Buffer.concat([Buffer.from(`${c.method} `), Buffer.from(c.target), Buffer.from(" HTTP/1.1")]), Buffer.from("Host: 127.0.0.1")]
  for (const [name, value] of c.headers) lines.push(Buffer.concat([Buffer.from(`${name}: `), withKey(value, key)]))
  switch (c.body._tag) {
    case "bytes":
      lines.push(Buffer.from(`Content-Length: ${c.body.bytes.byteLength}`))
      break
    case "declared-only":
      lines.push(Buffer.from(`Content-Length: ${c.body.contentLength}`))
      break
    case "chunked-zeros":
      lines.push(Buffer.from("Transfer-Encoding: chunked"))
      break
    case "none":
      break
  }
  lines.push(Buffer.from("Connection: close"))
  return Buffer.concat([...lines.flatMap((l) => [l, Buffer.from("\r\n")]), Buffer.from("\r\n")])
}
