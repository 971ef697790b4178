/**
 * What aiohttp's HTTP parser (0.19.0 ships aiohttp 3.14) refuses before any middleware or route,
 * and node:http does not: a header name or value over 8190 bytes (observed: a value of exactly
 * 8190 bytes passes under any name, 8191 does not), and a
 * second copy of a header that may appear once. aiohttp answers those with a bare HTTP/1.0 400
 * whose text is the parser's exception; the emulator writes the same bytes.
 */

export const MAX_FIELD_SIZE = 8190

// aiohttp's SINGLETON_HEADERS, in its spelling (the message names the header so)
const SINGLETONS = ["Content-Length", "Content-Location", "Content-Range", "Content-Type", "ETag", "Host", "Max-Forwards", "Server", "Transfer-Encoding", "User-Agent"]
const SINGLETON_BY_LOWER = new Map(SINGLETONS.map((h) => [h.toLowerCase(), h]))
// most request headers are no singleton, and their length says so without lower-casing them
const SINGLETON_LENGTHS = new Set(SINGLETONS.map((h) => h.length))

/** Python's repr() of a bytes value (given one char per byte, as node:http gives header text). */
const bytesRepr = (latin1: string): string => {
  const quote = latin1.includes("'") && !latin1.includes("\"") ? "\"" : "'"
  let out = `b${quote}`
  for (const ch of latin1) {
    const b = ch.charCodeAt(0)
    if (ch === quote || ch === "\\") out += `\\${ch}`
    else if (b === 0x09) out += "\\t"
    else if (b === 0x0a) out += "\\n"
    else if (b === 0x0d) out += "\\r"
    else if (b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).padStart(2, "0")}`
    else out += ch
  }
  return out + quote
}

/** The parser's refusal text for these raw headers (name, value, name, value…), or undefined. */
export const parserRejection = (rawHeaders: ReadonlyArray<string>): string | undefined => {
  const seen = new Set<string>()
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string
    const value = rawHeaders[i + 1] as string
    if (name.length > MAX_FIELD_SIZE) return `Got more than ${MAX_FIELD_SIZE} bytes when reading: ${bytesRepr(`${name.slice(0, 100)}...`)}.`
    if (value.length > MAX_FIELD_SIZE) {
      return `Got more than ${MAX_FIELD_SIZE} bytes when reading: ${bytesRepr(`${value.slice(0, 100)}...`)}.`
    }
    const singleton = SINGLETON_LENGTHS.has(name.length) ? SINGLETON_BY_LOWER.get(name.toLowerCase()) : undefined
    if (singleton !== undefined) {
      if (seen.has(singleton)) return `Duplicate '${singleton}' header found.`
      seen.add(singleton)
    }
  }
  return undefined
}

/** aiohttp's answer to a request its parser refused: HTTP/1.0, plain text, the connection closes. */
export const parserRejectionResponse = (message: string, date: string): string => {
  const body = Buffer.from(message, "utf8")
  return (
    "HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n" +
    `Content-Length: ${body.byteLength}\r\nDate: ${date}\r\n\r\n${message}`
  )
}
