/**
 * Reading an HTTP/1.x answer as it came over a socket, for the differ's one raw HTTP client
 * (sendRaw.ts: whole answers to arbitrary bytes; rawFetch.ts: fetch over a socket): the head as
 * sent (status line with its reason phrase, headers in wire order with their casing), the framing,
 * and chunked bodies de-chunked as they arrive.
 */

export type Framing = "content-length" | "chunked" | "close" | "none"

export interface ParsedHead {
  /** "HTTP/1.1 200 OK" */
  readonly statusLine: string
  /** 0 when the status line is not HTTP/1.x. */
  readonly status: number
  /** In wire order, names as cased on the wire, values trimmed. */
  readonly headers: ReadonlyArray<readonly [string, string]>
}

/** The head's bytes (everything before the blank line). */
export const parseHead = (head: Buffer): ParsedHead => {
  const [statusLine = "", ...lines] = head.toString("latin1").split("\r\n")
  const headers = lines.map((l) => {
    const colon = l.indexOf(":")
    return [l.slice(0, colon), l.slice(colon + 1).trim()] as const
  })
  return { statusLine, status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers }
}

/** A header's value, by case-insensitive name (the first one). */
export const headerValue = (head: ParsedHead, name: string): string | undefined => head.headers.find(([k]) => k.toLowerCase() === name)?.[1]

/** How the body is delimited: chunked, by Content-Length, by the close, or not at all (HEAD, 204, 304). */
export const framingOf = (head: ParsedHead, method: string): Framing => {
  if ((headerValue(head, "transfer-encoding") ?? "").toLowerCase().includes("chunked")) return "chunked"
  if (headerValue(head, "content-length") !== undefined) return "content-length"
  return method === "HEAD" || head.status === 204 || head.status === 304 ? "none" : "close"
}

/** Incremental de-chunking of a chunked body: push data as it comes, get the payload out. */
export class Dechunker {
  private pending = Buffer.alloc(0)
  private left = 0
  private trailer = false
  done = false

  push(data: Buffer, out: (b: Buffer) => void): void {
    this.pending = Buffer.concat([this.pending, data])
    for (;;) {
      if (this.done) return
      if (this.left > 0) {
        if (this.pending.length === 0) return
        const n = Math.min(this.left, this.pending.length)
        out(this.pending.subarray(0, n))
        this.pending = this.pending.subarray(n)
        this.left -= n
        if (this.left === 0) this.trailer = true
        continue
      }
      const eol = this.pending.indexOf("\r\n")
      if (eol < 0) return
      const line = this.pending.subarray(0, eol).toString("latin1")
      this.pending = this.pending.subarray(eol + 2)
      if (this.trailer) {
        // the CRLF after a chunk's data
        this.trailer = false
        continue
      }
      const size = parseInt(line, 16)
      if (!(size > 0)) {
        this.done = true
        return
      }
      this.left = size
    }
  }
}

/** A whole chunked body at once (what arrived of it). */
export const dechunk = (body: Buffer): Buffer => {
  const parts: Array<Buffer> = []
  new Dechunker().push(body, (b) => void parts.push(b))
  return Buffer.concat(parts)
}
