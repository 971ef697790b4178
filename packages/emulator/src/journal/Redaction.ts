/**
 * What the journal and the recorder never store: credentials. Header values of auth and key-like
 * headers, values of key-like JSON fields (at any depth), bearer tokens and `sk-…` keys inside text,
 * and any secret the caller names (the configured API and admin keys) wherever it appears.
 */

export const REDACTED = "[REDACTED]"

/** Headers that identify a request but are no secret, although their names look key-like. */
const HARMLESS_HEADERS = new Set(["idempotency-key", "x-hermes-session-id", "x-hermetic-namespace"])

const SECRET_HEADER = /authorization|cookie|key$|secret|token|password|credential/i

export const isSecretHeader = (name: string): boolean => !HARMLESS_HEADERS.has(name.toLowerCase()) && SECRET_HEADER.test(name)

const SECRET_FIELD_EXACT = new Set(["key", "apikey", "secret", "password", "passwd", "token", "authorization", "auth", "bearer", "credentials", "cookie"])
const SECRET_FIELD_SUFFIXES = ["key", "secret", "token", "password"]
/** Fields named like keys that identify rather than authorize. */
const HARMLESS_FIELDS = new Set(["idempotencykey"])

/** A JSON field whose value is a credential: `api_key`, `apiKey`, `session_key`, `client_secret`, `access_token`, `password`… */
export const isSecretField = (name: string): boolean => {
  const n = name.toLowerCase().replace(/[-_\s]/g, "")
  return !HARMLESS_FIELDS.has(n) && (SECRET_FIELD_EXACT.has(n) || SECRET_FIELD_SUFFIXES.some((s) => n.endsWith(s)))
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const STRING_TOKEN = /"((?:[^"\\]|\\.)*)("?)/g
const COLON = /\s*:\s*/y

const unescapeJson = (raw: string): string => {
  try {
    return JSON.parse(`"${raw}"`) as string
  } catch {
    return raw
  }
}

/**
 * `"api_key": "…"` inside JSON text that is not parsed (cut short, or not JSON at all). String
 * tokens are read left to right, so a key is recognized only where a JSON key can be, never in the
 * middle of another string (a regex over the raw text can start inside one and lose its footing).
 */
const redactJsonFields = (input: string): string => {
  let out = ""
  let copied = 0
  let valueAt = -1
  for (const m of input.matchAll(STRING_TOKEN)) {
    const start = m.index
    const end = start + m[0].length
    if (start === valueAt) {
      out += `${input.slice(copied, start)}"${REDACTED}${m[2] ?? ""}`
      copied = end
      valueAt = -1
      continue
    }
    valueAt = -1
    if (m[2] !== '"') continue
    COLON.lastIndex = end
    const colon = COLON.exec(input)
    if (colon !== null && isSecretField(unescapeJson(m[1] ?? ""))) valueAt = end + colon[0].length
  }
  return out + input.slice(copied)
}

export interface Redactor {
  /** Redacts secrets inside free text (also JSON text that could not be parsed or was cut short). */
  readonly text: (text: string) => string
  /** Redacts a JSON value: key-like fields lose their value, strings are redacted as text. */
  readonly json: (value: unknown) => unknown
  /** Header map with secret values replaced. */
  readonly headers: (headers: Readonly<Record<string, string | undefined>>) => Record<string, string>
}

/** A redactor that also removes the given literal secrets (ignores blanks and very short ones). */
export const makeRedactor = (secrets: ReadonlyArray<string | undefined> = []): Redactor => {
  const literals = secrets.filter((s): s is string => s !== undefined && s.length >= 4).sort((a, b) => b.length - a.length)
  const literal = literals.length === 0 ? undefined : new RegExp(literals.map(escapeRegExp).join("|"), "g")
  const text = (input: string): string => {
    let out = literal === undefined ? input : input.replace(literal, REDACTED)
    out = out.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`)
    out = out.replace(/\bsk-[A-Za-z0-9_-]{12,}/g, REDACTED)
    return redactJsonFields(out)
  }
  const json = (value: unknown): unknown => {
    if (typeof value === "string") return text(value)
    if (Array.isArray(value)) return value.map(json)
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(value)) out[k] = isSecretField(k) && v !== null ? REDACTED : json(v)
      return out
    }
    return value
  }
  const headers = (input: Readonly<Record<string, string | undefined>>): Record<string, string> => {
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(input)) {
      if (v === undefined) continue
      out[k] = isSecretHeader(k) ? REDACTED : text(v)
    }
    return out
  }
  return { text, json, headers }
}
