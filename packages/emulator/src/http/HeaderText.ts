/**
 * A header value made from text, as aiohttp writes it: each code point as its UTF-8 bytes, lone
 * surrogates dropped (its header writer skips them). A header value on this side is bytes, one
 * char per byte (node:http writes a value as latin1; fetch's Headers hold a ByteString), so the
 * bytes go out as such a string: over node:http the same bytes as the real gateway's, in process
 * the same value a client reading the real gateway's header as latin1 sees.
 */
const encoder = new TextEncoder()

export const headerText = (text: string): string => {
  let out = ""
  for (const ch of text) {
    const cp = ch.codePointAt(0)!
    if (cp < 0xd800 || cp > 0xdfff) out += String.fromCharCode(...encoder.encode(ch))
  }
  return out
}

/** The `X-Hermes-Session-Id` header a route answers with: the session id's text as aiohttp writes it. */
export const sessionIdHeader = (sessionId: string): readonly [string, string] => ["X-Hermes-Session-Id", headerText(sessionId)]
