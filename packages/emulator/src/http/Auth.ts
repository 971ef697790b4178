/**
 * Hermes' bearer check: with no key configured everything is allowed; otherwise the Authorization
 * header must be "Bearer " + the key (the token is stripped before comparison).
 */
import { timingSafeEqual } from "node:crypto"
import type { EmuResponse } from "./Exchange.js"
import { jsonResponse } from "./Exchange.js"
import type { RouteContext } from "./Route.js"
import { pyStrip } from "../python/strip.js"

const sameBytes = (a: string, b: string): boolean => {
  const x = Buffer.from(a, "utf8")
  const y = Buffer.from(b, "utf8")
  return x.length === y.length && timingSafeEqual(x, y)
}

export const checkAuth = (ctx: RouteContext): EmuResponse | undefined => {
  const expected = ctx.config.apiKey
  if (expected === "") return undefined
  const auth = ctx.req.headers["authorization"] ?? ""
  if (auth.startsWith("Bearer ") && sameBytes(pyStrip(auth.slice(7)), expected)) return undefined
  const f = ctx.features.authFailure
  return jsonResponse({ error: { message: f.message, type: f.type, code: f.code } }, 401)
}
