/**
 * Hermes' bearer check, the one gate in front of every route the table marks `auth: "bearer"`:
 * with no key configured everything is allowed; otherwise the Authorization header must be
 * "Bearer " + the key, the token stripped (Python's str.strip) before comparison.
 * The header is read as aiohttp reads it (UTF-8, surrogateescape), and upstream compares
 * `token.encode()`: a token with a byte that is not UTF-8 raises there, an escaping exception
 * (aiohttp's 500), as the real 0.19.0 gateway answers (evidence/hardening/).
 */
import { nodeCrypto } from "../services/NodeCrypto.js"
import type { EmulatorConfigShape } from "../config/EmulatorConfig.js"
import type { Features } from "../version/Pins.js"
import type { EmuRequestHead, EmuResponse } from "./Exchange.js"
import { jsonResponse } from "./Exchange.js"
import { pyHeaderText, pyStrip, pyUtf8Encodable } from "../python/index.js"

export type BearerVerdict =
  | { readonly _tag: "allowed" }
  | { readonly _tag: "denied"; readonly response: EmuResponse }
  | { readonly _tag: "crash"; readonly reason: string }

const ALLOWED: BearerVerdict = { _tag: "allowed" }

// the configured key's bytes, encoded once per key rather than on every request
let expectedKey = ""
let expectedBytes = Buffer.alloc(0)

const sameBytes = (token: string, key: string): boolean => {
  if (key !== expectedKey) {
    expectedKey = key
    expectedBytes = Buffer.from(key, "utf8")
  }
  const x = Buffer.from(token, "utf8")
  return x.length === expectedBytes.length && nodeCrypto().timingSafeEqual(x, expectedBytes)
}

/** How an Authorization header meets a key ("" = no key): the check `serve`, record and replay share. */
export const bearerCheck = (expected: string, authorization: string | undefined): "allowed" | "denied" | "crash" => {
  // Stryker disable next-line all: keyless mode: the emulator's own, since 0.19.0 refuses to start without API_SERVER_KEY, so no recording can judge it
  if (expected === "") return "allowed"
  const auth = pyHeaderText(authorization ?? "")
  if (auth.startsWith("Bearer ")) {
    const token = pyStrip(auth.slice(7))
    if (!pyUtf8Encodable(token)) return "crash"
    if (sameBytes(token, expected)) return "allowed"
  }
  return "denied"
}

export const bearerGate = (config: EmulatorConfigShape, features: Features, req: EmuRequestHead): BearerVerdict => {
  const check = bearerCheck(config.apiKey, req.headers["authorization"])
  if (check === "allowed") return ALLOWED
  if (check === "crash") return { _tag: "crash", reason: "UnicodeEncodeError: surrogates not allowed" }
  const f = features.authFailure
  return { _tag: "denied", response: jsonResponse({ error: { message: f.message, type: f.type, code: f.code } }, 401) }
}
