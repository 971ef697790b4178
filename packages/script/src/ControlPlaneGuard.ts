/**
 * Who may drive a control plane (`/__admin`): the emulator's and the fake model's, which both
 * apply these very rules. Pure: no server imports.
 *
 * A control plane resets state and arms faults, so a web page must not reach it: browsers send
 * cross-site "simple" requests (text/plain or form bodies, no preflight) and, through DNS
 * rebinding, same-origin ones under a foreign Host. Refused, in this order:
 * - a Host that is not loopback (localhost, 127.0.0.0/8, [::1]): DNS rebinding. A request with no
 *   Host (in-process callers) is not from a browser.
 * - an Origin that is not a loopback origin: any other web page.
 * - without the key, when a key is set (the admin key, else the API key): as a Bearer token or
 *   in `x-hermetic-admin-key`.
 * - any method but GET/HEAD without an `application/json` Content-Type: a simple request cannot
 *   carry that type cross-site without a preflight, which the plane never grants.
 */

export interface ControlPlanePolicy {
  /** The key every request must carry, or undefined when none is set. */
  readonly requiredKey: string | undefined
}

/** Header values by lower-cased name, as node:http gives them. */
export type HeaderBag = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

export type GuardVerdict =
  | { readonly _tag: "allowed" }
  | { readonly _tag: "refused"; readonly status: 401 | 403 | 415; readonly message: string }

export const ADMIN_KEY_HEADER = "x-hermetic-admin-key"

const first = (v: string | ReadonlyArray<string> | undefined): string | undefined =>
  typeof v === "string" ? v : v?.[0]

/** The host part of a Host header or of an origin's authority, without port or IPv6 brackets. */
const hostName = (authority: string): string => {
  const a = authority.trim().toLowerCase()
  if (a.startsWith("[")) {
    const end = a.indexOf("]")
    return end < 0 ? a : a.slice(1, end)
  }
  const colon = a.lastIndexOf(":")
  return colon < 0 ? a : a.slice(0, colon)
}

export const isLoopbackHostName = (name: string): boolean => {
  const h = name.endsWith(".") ? name.slice(0, -1) : name
  if (h === "localhost" || h.endsWith(".localhost")) return true
  if (h === "::1" || h === "0:0:0:0:0:0:0:1" || h === "::ffff:127.0.0.1") return true
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h)
  return v4 !== null && v4.slice(1).every((n) => Number(n) <= 255)
}

const isLoopbackOrigin = (origin: string): boolean => {
  const m = /^https?:\/\/([^/?#]+)$/i.exec(origin.trim())
  return m !== null && !(m[1] as string).includes("@") && isLoopbackHostName(hostName(m[1] as string))
}

const sameKey = (given: string, expected: string): boolean => {
  const a = Buffer.from(given, "utf8")
  const b = Buffer.from(expected, "utf8")
  // node:crypto at the call, not imported: loading it cost every emulator start ~1.9 ms
  return a.length === b.length && process.getBuiltinModule("node:crypto").timingSafeEqual(a, b)
}

const presentedKey = (headers: HeaderBag): string | undefined => {
  const explicit = first(headers[ADMIN_KEY_HEADER])
  if (explicit !== undefined) return explicit
  const auth = first(headers["authorization"])
  return auth !== undefined && auth.startsWith("Bearer ") ? auth.slice(7) : undefined
}

const isJsonContentType = (value: string | undefined): boolean =>
  value !== undefined && value.split(";")[0]?.trim().toLowerCase() === "application/json"

const refused = (status: 401 | 403 | 415, message: string): GuardVerdict => ({ _tag: "refused", status, message })

export const guardControlPlane = (
  policy: ControlPlanePolicy,
  request: { readonly method: string; readonly headers: HeaderBag }
): GuardVerdict => {
  const host = first(request.headers["host"])
  if (host !== undefined && !isLoopbackHostName(hostName(host))) {
    return refused(403, "the control plane answers loopback Host names only")
  }
  const origin = first(request.headers["origin"])
  if (origin !== undefined && !isLoopbackOrigin(origin)) {
    return refused(403, "cross-site requests to the control plane are refused")
  }
  if (policy.requiredKey !== undefined && policy.requiredKey !== "") {
    const given = presentedKey(request.headers)
    if (given === undefined || !sameKey(given, policy.requiredKey)) {
      return refused(401, `control plane key required (Authorization: Bearer <key> or ${ADMIN_KEY_HEADER})`)
    }
  }
  const method = request.method.toUpperCase()
  if (method !== "GET" && method !== "HEAD" && !isJsonContentType(first(request.headers["content-type"]))) {
    return refused(415, "the control plane takes Content-Type: application/json")
  }
  return { _tag: "allowed" }
}
