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
  /** One line saying what is odd about it (for the report). */
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
