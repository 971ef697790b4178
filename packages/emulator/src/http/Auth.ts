/**
 * Hermes' bearer check, the one gate in front of every route the table marks `auth: "bearer"`:
 * with no key configured everything is allowed; otherwise the Authorization header must be
 * "Bearer " + the key (the token is stripped before comparison).
 */
import { timingSafeEqual } from "node:crypto"
import type { EmulatorConfigShape } from "../config/EmulatorConfig.js"
import type { Features } from "../version/Pins.js"
import type { EmuRequestHead, EmuResponse } from "./Exchange.js"
import { jsonResponse } from "./Exchange.js"
import { pyStrip } from "../python/index.js"

const sameBytes = (a: string, b: string): boolean => {
  const x = Buffer.from(a, "utf8")
  const y = Buffer.from(b, "utf8")
  return x.length === y.length && timingSafeEqual(x, y)
}

/** The 401 answer for a request without the configured key, or undefined to go on. */
export const bearerDenied = (config: EmulatorConfigShape, features: Features, req: EmuRequestHead): EmuResponse | undefined => {
  const expected = config.apiKey
  if (expected === "") return undefined
  const auth = req.headers["authorization"] ?? ""
  if (auth.startsWith("Bearer ") && sameBytes(pyStrip(auth.slice(7)), expected)) return undefined
  const f = features.authFailure
  return jsonResponse({ error: { message: f.message, type: f.type, code: f.code } }, 401)
}
