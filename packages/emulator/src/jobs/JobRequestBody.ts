/**
 * `await request.json()` inside the jobs handlers' broad try: any failure (undecodable bytes,
 * invalid JSON) becomes a 500 whose text is the Python exception's, so the message matters here.
 */
import { Either } from "effect"
import type { EmuRequest } from "../http/Exchange.js"
import { contentTypeCharset, pyJsonLoads, pyRequestText, toHandlerValue } from "../python/index.js"

export const readJobBody = (req: EmuRequest): Either.Either<unknown, string> => {
  const text = pyRequestText(req.body, contentTypeCharset(req.headers["content-type"]))
  if (Either.isLeft(text)) return Either.left(text.left.message)
  const parsed = pyJsonLoads(text.right)
  if (Either.isLeft(parsed)) return Either.left(parsed.left.message)
  return Either.right(toHandlerValue(parsed.right))
}
