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
    // "api_key": "…" inside JSON text that is not parsed (cut short, or not JSON at all)
    out = out.replace(/"([^"\\]{1,64})"(\s*:\s*)"((?:[^"\\]|\\.)*)("?)/g, (whole, name: string, colon: string, _v: string, close: string) =>
      isSecretField(name) ? `"${name}"${colon}"${REDACTED}${close}` : whole
    )
    return out
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
