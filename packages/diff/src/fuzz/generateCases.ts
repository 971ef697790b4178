/**
 * Malformed requests, reproducible from a seed (fast-check's sampler). Every route of the pin's
 * table is a target; bodies that could start an agent turn are kept to what is certainly refused
 * (an agent turn needs a Script, and a fuzz run must not depend on one).
 */
import { features, type Pin, routesFor } from "@hermetic/emulator"
import fc from "fast-check"
import { describeRequest, type FuzzCase, type FuzzFamily } from "./FuzzCase.js"

const te = new TextEncoder()
const bytes = (s: string): Uint8Array => te.encode(s)

/** Routes whose accepted body runs the agent. */
const AGENT_ROUTES = new Set(["chat.completions", "responses.create", "runs.create", "sessions.chat", "sessions.chat.stream"])

interface RouteShape {
  readonly id: string
  readonly method: string
  readonly path: string
}

const IDS = ["x", "nope", "run_missing", "resp_missing", "0123456789ab", "..", "%2e%2e", "a".repeat(300)]
const fill = (path: string, id: string) => path.replace(/\{\w+\}/g, id)

const AUTH = (variant: string): ReadonlyArray<readonly [string, Uint8Array]> => {
  const key = "{{KEY}}"
  const table: Record<string, ReadonlyArray<readonly [string, Uint8Array]>> = {
    good: [["Authorization", bytes(`Bearer ${key}`)]],
    none: [],
    wrong: [["Authorization", bytes("Bearer wrong-key")]],
    "trailing space": [["Authorization", bytes(`Bearer ${key} `)]],
    "trailing tab": [["Authorization", bytes(`Bearer ${key}\t`)]],
    "double space": [["Authorization", bytes(`Bearer  ${key}`)]],
    "lone 0xA0": [["Authorization", Buffer.concat([Buffer.from(`Bearer ${key}`), Buffer.from([0xa0])])]],
    "utf-8 nbsp": [["Authorization", Buffer.concat([Buffer.from(`Bearer ${key}`), Buffer.from([0xc2, 0xa0])])]],
    "latin-1 é": [["Authorization", Buffer.concat([Buffer.from(`Bearer ${key}`), Buffer.from([0xe9])])]],
    "lower-case scheme": [["Authorization", bytes(`bearer ${key}`)]],
    "no space": [["Authorization", bytes(`Bearer${key}`)]],
    "basic": [["Authorization", bytes("Basic dXNlcjpwYXNz")]],
    "empty token": [["Authorization", bytes("Bearer ")]],
    "good then wrong": [["Authorization", bytes(`Bearer ${key}`)], ["Authorization", bytes("Bearer wrong")]],
    "wrong then good": [["Authorization", bytes("Bearer wrong")], ["Authorization", bytes(`Bearer ${key}`)]]
  }
  return table[variant] ?? []
}
const AUTH_VARIANTS = ["good", "none", "wrong", "trailing space", "trailing tab", "double space", "lone 0xA0", "utf-8 nbsp", "latin-1 é", "lower-case scheme", "no space", "basic", "empty token", "good then wrong", "wrong then good"]

const JSON_CT: readonly [string, Uint8Array] = ["Content-Type", bytes("application/json")]

const INVALID_JSON = ["{", "[1,", "nul", "\"", "{\"a\":}", "NaN", "{}garbage", "", "\ufeff{}", "1e999", "{\"a\": 1,}", "'x'", "[}", "{\"a\" 1}", "tru", "-", "0x10", "{\"\\ud800\": 1}", "\"\\u12\""]
const NON_OBJECT = ["[]", "1", "\"str\"", "null", "true", "1.5", "[{}]"]

/** The label says what is odd, then the request exactly, so that no two requests share a label. */
const exactly = (c: Omit<FuzzCase, "id">): Omit<FuzzCase, "id"> => ({ ...c, label: `${c.label} — ${describeRequest(c)}` })

const nested = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth)

/** Bodies of the right shape with wrong field types, per route (never an agent route). */
const WRONG_TYPES: Record<string, ReadonlyArray<string>> = {
  "sessions.create": ["{\"id\": 123}", "{\"id\": true}", "{\"id\": []}", "{\"id\": {}}", "{\"id\": \"ok-id\", \"title\": 5}", "{\"title\": []}", "{\"system_prompt\": 1}", "{\"id\": \"\\u0000\"}", "{\"id\": \"a/b\"}", "{\"id\": \"\\ud800z\"}", "{\"model\": [1]}", "{\"source\": {}}"],
  "sessions.patch": ["{\"title\": 5}", "{\"pinned\": \"x\"}", "{\"unknown\": 1}", "{\"end_reason\": []}", "{\"archived\": null}", "{\"title\": \"\\ud800\"}"],
  "sessions.fork": ["{\"id\": 5}", "{\"title\": []}", "{\"id\": \"\\udc00\"}"],
  "jobs.create": ["{\"name\": 1}", "{\"schedule\": []}", "{\"prompt\": {}}", "{\"name\": \"n\", \"schedule\": \"nonsense\", \"prompt\": \"p\"}", "{\"repeat\": \"x\"}", "{\"skills\": 5}", "{\"deliver\": 3}", "{\"name\": \"\", \"schedule\": \"every 1h\", \"prompt\": \"p\"}"],
  "jobs.update": ["{\"name\": 1}", "{\"schedule\": 5}", "{\"enabled\": \"x\"}", "{\"bogus\": 1}"],
  "runs.approval": ["{\"choice\": 1}", "{\"choice\": \"maybe\"}", "{\"all\": \"x\"}", "{}"],
  "runs.steer": ["{\"text\": 1}", "{}", "{\"text\": []}"],
  "runs.stop": ["{}", "{\"x\": 1}"]
}

const PATHS = [
  "//v1/runs", "/v1/runs/", "/v1/%72uns", "/v1/runs/%2F", "/api/sessions/%ZZ", "/api/sessions/%ED%A0%80", "/p/x/health", "/p//health",
  "/health?x=%", "/health?%ff=1", "/../health", "/./health", "/HEALTH", "/v1/models?limit=-1", "/api/sessions?limit=abc&offset=-5",
  "/api/sessions?limit=99999999999999999999", "/api/jobs?include_disabled=maybe", "/__hermes", "/v2/runs", "/api/sessions/x/messages?limit=%00",
  "/api/sessions/x/messages?order=sideways", `/api/sessions/${"s".repeat(5000)}`, "/v1/responses/%00", "/health#frag", "/v1/runs/x/events?after=-1"
]
const RAW_PATHS: ReadonlyArray<Uint8Array> = [
  Buffer.from([0x2f, 0x68, 0x65, 0x61, 0x6c, 0x74, 0x68, 0xff]),
  Buffer.concat([Buffer.from("/api/sessions/"), Buffer.from([0xc3, 0xa9])]),
  Buffer.concat([Buffer.from("/api/sessions/"), Buffer.from([0xe9])])
]
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "FOO", "CONNECT"]
const CONTENT_TYPES = ["text/plain", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "application/json; charset=latin-1", "application/json; charset=utf-16", "application/json; charset=bogus", "application/json; charset=ascii", "", "application/json;;", "APPLICATION/JSON"]

export const fuzzCaseArbitrary = (pin: Pin): fc.Arbitrary<Omit<FuzzCase, "id">> => {
  const routes: ReadonlyArray<RouteShape> = routesFor(features(pin)).map((r) => ({ id: r.id, method: r.method, path: r.path }))
  const bodyRoutes = routes.filter((r) => r.method !== "GET" && r.method !== "DELETE")
  const route = fc.constantFrom(...routes)
  const bodyRoute = fc.constantFrom(...bodyRoutes)
  const id = fc.constantFrom(...IDS)
  const auth = fc.constantFrom(...AUTH_VARIANTS)
  const target = (r: RouteShape, i: string) => bytes(fill(r.path, i))
  const c = (family: FuzzFamily, what: string, method: string, t: Uint8Array, headers: ReadonlyArray<readonly [string, Uint8Array]>, body: FuzzCase["body"]): Omit<FuzzCase, "id"> =>
    exactly({ family, label: what, method, target: t, headers, body })

  const method = fc.tuple(route, id, fc.constantFrom(...METHODS), auth).map(([r, i, m, a]) =>
    c("method", `${m} ${r.path} (${a})`, m, target(r, i), AUTH(a), m === "POST" || m === "PUT" || m === "PATCH" ? { _tag: "bytes", bytes: bytes(AGENT_ROUTES.has(r.id) ? "[]" : "{}") } : { _tag: "none" }))
  const path = fc.tuple(fc.oneof(fc.constantFrom(...PATHS).map(bytes), fc.constantFrom(...RAW_PATHS)), fc.constantFrom("GET", "POST", "DELETE"), auth).map(([p, m, a]) =>
    c("path", `${m} ${Buffer.from(p).toString("latin1").slice(0, 60)} (${a})`, m, p, AUTH(a), m === "POST" ? { _tag: "bytes", bytes: bytes("[]") } : { _tag: "none" }))
  const invalidJson = fc.tuple(bodyRoute, id, fc.constantFrom(...INVALID_JSON, ...NON_OBJECT), auth).map(([r, i, b, a]) =>
    c("invalid-json", `${r.id} body ${JSON.stringify(b).slice(0, 40)} (${a})`, r.method, target(r, i), [...AUTH(a), JSON_CT], { _tag: "bytes", bytes: bytes(b) }))
  const wrongTypes = fc.constantFrom(...Object.keys(WRONG_TYPES).filter((k) => routes.some((r) => r.id === k))).chain((routeId) =>
    fc.tuple(fc.constant(routeId), id, fc.constantFrom(...(WRONG_TYPES[routeId] ?? ["{}"])), fc.constantFrom("good", "good", "good", "none"))
  ).map(([routeId, i, b, a]) => {
    const r = routes.find((x) => x.id === routeId) as RouteShape
    return c("wrong-types", `${routeId} ${b} (${a})`, r.method, target(r, i), [...AUTH(a), JSON_CT], { _tag: "bytes", bytes: bytes(b) })
  })
  const deep = fc.tuple(bodyRoute, id, fc.constantFrom(50, 500, 1000, 5000, 20000), fc.constantFrom(["[", "]"], ["{\"a\":", "}"]), fc.constantFrom("good", "none")).map(([r, i, d, [o, cl], a]) =>
    c("deep-nesting", `${r.id} ${o === "[" ? "arrays" : "objects"} nested ${d} deep (${a})`, r.method, target(r, i), [...AUTH(a), JSON_CT], { _tag: "bytes", bytes: bytes(o === "[" ? nested(d, o, cl as string) : o.repeat(d) + "1" + (cl as string).repeat(d)) }))
  const oversize = fc.oneof(
    { weight: 20, arbitrary: fc.tuple(route, id, fc.constantFrom("10000001", "300000000", "99999999999999999999", "-1", "1.5", "abc", " 12", "+5"), auth).map(([r, i, cl, a]) =>
      c("oversize", `${r.method} ${r.id} Content-Length ${cl}, no body (${a})`, r.method, target(r, i), AUTH(a), { _tag: "declared-only", contentLength: cl })) },
    { weight: 1, arbitrary: fc.tuple(bodyRoute, id, fc.constantFrom("good", "none")).map(([r, i, a]) =>
      c("oversize", `${r.id} chunked 12 MB (${a})`, r.method, target(r, i), AUTH(a), { _tag: "chunked-zeros", size: 12_000_000 })) }
  )
  const invalidUtf8 = fc.tuple(bodyRoute, id, fc.constantFrom(
    Buffer.from([0xff]), Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
    Buffer.from("{\"id\": \"\\ud800\"}"), Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), Buffer.from([0x7b, 0x7d, 0x80])
  ), fc.constantFrom("application/json", "application/json; charset=latin-1", "application/json; charset=utf-8"), fc.constantFrom("good", "none")).map(([r, i, b, ct, a]) =>
    c("invalid-utf8", `${r.id} bytes ${b.toString("hex").slice(0, 24)} as ${ct} (${a})`, r.method, target(r, i), [...AUTH(a), ["Content-Type", bytes(ct)]], { _tag: "bytes", bytes: b }))
  const contentType = fc.tuple(bodyRoute, id, fc.constantFrom(...CONTENT_TYPES), fc.constantFrom("{}", "a=1", "--x--", "[]"), fc.constantFrom("good", "none")).map(([r, i, ct, b, a]) => {
    const safe = AGENT_ROUTES.has(r.id) && b === "{}" ? "[]" : b
    return c("content-type", `${r.id} ${ct || "(empty)"} body ${safe} (${a})`, r.method, target(r, i), [...AUTH(a), ["Content-Type", bytes(ct)]], { _tag: "bytes", bytes: bytes(safe) })
  })
  const duplicates = fc.tuple(route, id, fc.constantFrom(
    [["Content-Type", bytes("application/json")], ["Content-Type", bytes("text/plain")]],
    [["X-Hermes-Session-Id", bytes("a")], ["X-Hermes-Session-Id", bytes("b")]],
    [["Idempotency-Key", bytes("k1")], ["Idempotency-Key", bytes("k2")]],
    [["X-Hermes-Session-Key", bytes("k")], ["X-Hermes-Session-Key", bytes("j")]],
    [["Origin", bytes("http://a.example")], ["Origin", bytes("http://b.example")]]
  ) as fc.Arbitrary<ReadonlyArray<readonly [string, Uint8Array]>>, fc.constantFrom("good", "none", "wrong then good")).map(([r, i, hs, a]) =>
    c("duplicate-headers", `${r.method} ${r.id} twice ${hs[0]?.[0]} (${a})`, r.method, target(r, i), [...AUTH(a), ...hs], r.method === "GET" || r.method === "DELETE" ? { _tag: "none" } : { _tag: "bytes", bytes: bytes(AGENT_ROUTES.has(r.id) ? "[]" : "{}") }))
  const longHeader = fc.tuple(route, id, fc.constantFrom(100, 4000, 8000, 8190, 8191, 9000, 20000, 70000), fc.constantFrom("X-Long", "Authorization", "X-Hermes-Session-Id", "Cookie"), fc.constantFrom("good", "none")).map(([r, i, n, name, a]) => {
    const value = name === "Authorization" ? bytes(`Bearer ${"k".repeat(n)}`) : bytes("v".repeat(n))
    return c("long-header", `${r.method} ${r.id} ${name} of ${n} bytes (${a})`, r.method, target(r, i), [...(name === "Authorization" ? [] : AUTH(a)), [name, value]], { _tag: "none" })
  })
  const authFamily = fc.tuple(route, id, auth).map(([r, i, a]) =>
    c("auth", `${r.method} ${r.id} auth ${a}`, r.method, target(r, i), AUTH(a), r.method === "GET" || r.method === "DELETE" ? { _tag: "none" } : { _tag: "bytes", bytes: bytes(AGENT_ROUTES.has(r.id) ? "{" : "{}") }))

  return fc.oneof(method, path, invalidJson, wrongTypes, deep, oversize, invalidUtf8, contentType, duplicates, longHeader, authFamily)
}

/**
 * Named cases for each claim of the hardening issue, sent first in every live run so its evidence
 * covers them whatever the seed: body limits, bearer variants, lone surrogates, the jobs 500s with
 * Python's exception text, 404/405/413 without security headers.
 */
export const hardeningCases = (): ReadonlyArray<Omit<FuzzCase, "id">> => {
  const json = JSON_CT
  const good = AUTH("good")
  const c = (family: FuzzFamily, label: string, method: string, path: string, headers: ReadonlyArray<readonly [string, Uint8Array]>, body: FuzzCase["body"]): Omit<FuzzCase, "id"> =>
    exactly({ family, label: `[claim] ${label}`, method, target: bytes(path), headers, body })
  const text = (s: string): FuzzCase["body"] => ({ _tag: "bytes", bytes: bytes(s) })
  return [
    c("oversize", "declared Content-Length 300000000 to an unknown route: 413 at once", "POST", "/nonexistent", [], { _tag: "declared-only", contentLength: "300000000" }),
    c("oversize", "declared Content-Length 300000000 to runs: 413 at once", "POST", "/v1/runs", good, { _tag: "declared-only", contentLength: "300000000" }),
    c("oversize", "declared Content-Length 10000001: 413", "POST", "/api/jobs", good, { _tag: "declared-only", contentLength: "10000001" }),
    c("oversize", "chunked 12 MB to an unknown route: 404", "POST", "/nonexistent", [], { _tag: "chunked-zeros", size: 12_000_000 }),
    c("oversize", "chunked 12 MB to runs: Invalid JSON", "POST", "/v1/runs", good, { _tag: "chunked-zeros", size: 12_000_000 }),
    c("oversize", "chunked 12 MB to jobs: Python's exception text", "POST", "/api/jobs", good, { _tag: "chunked-zeros", size: 12_000_000 }),
    c("oversize", "chunked 12 MB without a key: 401", "POST", "/v1/runs", [], { _tag: "chunked-zeros", size: 12_000_000 }),
    ...AUTH_VARIANTS.map((v) => c("auth", `bearer variant: ${v}`, "GET", "/v1/models", AUTH(v), { _tag: "none" })),
    c("wrong-types", "lone surrogate in a created session id: 500, nothing stored", "POST", "/api/sessions", [...good, json], text("{\"id\": \"\\ud800x\"}")),
    c("wrong-types", "the same id again: still 500 (nothing was stored)", "POST", "/api/sessions", [...good, json], text("{\"id\": \"\\ud800x\"}")),
    c("wrong-types", "a fork source", "POST", "/api/sessions", [...good, json], text("{\"id\": \"claim-base\"}")),
    c("wrong-types", "lone surrogate in a fork id: 500", "POST", "/api/sessions/claim-base/fork", [...good, json], text("{\"id\": \"\\udc00f\"}")),
    c("wrong-types", "lone surrogate in a title: sanitized", "POST", "/api/sessions", [...good, json], text("{\"id\": \"claim-title\", \"title\": \"\\ud800t\"}")),
    c("wrong-types", "jobs: invalid JSON is Python's exception text in a 500", "POST", "/api/jobs", [...good, json], text("{")),
    c("wrong-types", "jobs: a list body is Python's AttributeError text in a 500", "POST", "/api/jobs", [...good, json], text("[]")),
    c("wrong-types", "jobs: a non-string name", "POST", "/api/jobs", [...good, json], text("{\"name\": 1, \"schedule\": \"every 1h\", \"prompt\": \"p\"}")),
    c("path", "404 without security headers", "GET", "/nonexistent", good, { _tag: "none" }),
    c("method", "405 without security headers", "DELETE", "/health", good, { _tag: "none" }),
    c("oversize", "413 without security headers", "PATCH", "/api/sessions/x", good, { _tag: "declared-only", contentLength: "99999999" }),
    // a declared body never sent: the checks a handler makes before reading it answer without it
    ...([
      ["PATCH", "/api/sessions/missing", "unknown session: 404 without the body"],
      ["POST", "/api/sessions/missing/fork", "fork of an unknown session: 404 without the body"],
      ["POST", "/api/sessions/missing/chat", "chat in an unknown session: 404 without the body"],
      ["POST", "/v1/runs/run_missing/approval", "approval of an unknown run: 404 without the body"],
      ["POST", "/v1/runs/run_missing/stop", "stop (never reads the body): 404"],
      ["PATCH", "/api/jobs/not-a-hex-id", "job update with a malformed id: 400 without the body"],
      ["POST", "/api/jobs/0123456789ab/pause", "job pause (never reads the body): 404"],
      ["POST", "/api/platforms/x/events", "platform event (never reads the body): 503"],
      ["POST", "/api/sessions", "session create reads the body first: both wait"]
    ] as const).map(([method, path, what]) => c("oversize", `withheld body, ${what}`, method, path, [...good, json], { _tag: "declared-only", contentLength: "12" }))
  ]
}

/** The named hardening cases, then `count` random cases from `seed`; the same seed gives the same cases. */
export const generateCases = (pin: Pin, seed: number, count: number, named = true): ReadonlyArray<FuzzCase> => {
  const fixed = named ? hardeningCases() : []
  const random = fc.sample(fuzzCaseArbitrary(pin), { seed, numRuns: Math.max(0, count - fixed.length) })
  return [...fixed, ...random].map((c, id) => ({ ...c, id }))
}
