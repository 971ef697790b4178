/**
 * /v1/chat/completions: plain and streamed turns (text, chunks, model errors), keyed requests and
 * their exact replays and conflicting reuse, and rejected requests (bodies, auth).
 */
import * as fc from "fast-check"
import type { JsonValue } from "../../json/JsonValue.js"
import type { HttpRequestSpec } from "../../scenario/Scenario.js"
import { type GenModel, type KeyedChat, REAL_DRIFT } from "../GenModel.js"
import { command, type OperationCommands } from "./Operation.js"
import { plainReply, plainTurn } from "./replies.js"

const PATH = "/v1/chat/completions"

const messagesFor = (variant: number, n: number): JsonValue => {
  switch (variant % 3) {
    case 0:
      return [{ role: "user", content: `chat question ${n}` }]
    case 1:
      return [{ role: "system", content: "be brief" }, { role: "user", content: `chat question ${n}` }]
    default:
      return [{ role: "user", content: "first" }, { role: "assistant", content: "ok" }, { role: "user", content: `follow-up ${n}` }]
  }
}

const REJECTED: ReadonlyArray<Omit<HttpRequestSpec, "method" | "path">> = [
  { body: { model: "hermes-agent" } },
  { body: { messages: [] } },
  { body: { messages: "not a list" } },
  { rawBody: "{oops", headers: { "content-type": "application/json" } },
  { body: { messages: [{ role: "user", content: "hi" }] }, auth: "none" },
  { body: { messages: [{ role: "user", content: "hi" }] }, auth: "wrong" }
]

/** 0.19.0's _IdempotencyCache keeps an answer 300 s of wall time (a stamp in the future is kept). */
const IDEMPOTENCY_WINDOW = 300

/** Whether a keyed answer is still replayed, purged, or too near the window's end to tell (real seconds pass). */
const windowOf = (m: Readonly<GenModel>, k: KeyedChat): "kept" | "purged" | "racing" => {
  const age = m.clock - k.at
  return age < IDEMPOTENCY_WINDOW - REAL_DRIFT ? "kept" : age > IDEMPOTENCY_WINDOW + REAL_DRIFT ? "purged" : "racing"
}

export const chatOperation: OperationCommands = {
  id: "chat.completions",
  requiresRoutes: ["chat.completions"],
  commands: () => [
    fc.record({ kind: plainTurn, stream: fc.boolean(), variant: fc.nat({ max: 2 }), keyed: fc.boolean() }).map(({ kind, stream, variant, keyed }) =>
      command(`chat(${kind}${stream ? ", stream" : ""}${keyed ? ", key" : ""})`, () => true, (m, b) => {
        const n = ++m.aliasCount
        const body: JsonValue = { model: "hermes-agent", messages: messagesFor(variant, n), ...(stream ? { stream: true } : {}) }
        const key = `chat-key-${n}-{play.nonce}`
        b.script({ turns: [{ replies: [plainReply(kind, n)] }] })
        m.warmth = "warm"
        b.add({ request: { method: "POST", path: PATH, body, ...(keyed ? { headers: { "Idempotency-Key": key } } : {}) } })
        if (keyed) m.keyedChats.push({ key, body, at: m.clock })
      })
    ),
    fc.record({ pick: fc.nat(), conflict: fc.boolean() }).map(({ pick, conflict }) =>
      command(`chatKeyReuse(${conflict ? "other body" : "same body"})`, (m) => m.keyedChats.some((k) => windowOf(m, k) !== "racing"), (m, b) => {
        const usable = m.keyedChats.filter((k) => windowOf(m, k) !== "racing")
        const keyed = usable[pick % usable.length]
        if (keyed === undefined) return
        const body: JsonValue = conflict ? { messages: [{ role: "user", content: "a different question" }] } : keyed.body
        // past the window the answer was purged: the same body is a new turn, stamped now
        if (!conflict && windowOf(m, keyed) === "purged") {
          b.script({ turns: [{ replies: [plainReply("text", ++m.aliasCount)] }] })
          keyed.at = m.clock
        }
        b.add({ request: { method: "POST", path: PATH, body, headers: { "Idempotency-Key": keyed.key } } })
      })
    ),
    fc.constantFrom(...REJECTED).map((req) =>
      command(`chatRejected(${JSON.stringify(req.body ?? req.rawBody)}${req.auth ? `, auth ${req.auth}` : ""})`, () => true, (_m, b) => b.add({ request: { method: "POST", path: PATH, ...req } }))
    )
  ]
}
