/**
 * Tool calls, on the tools profile only (profile/GatewayProfile.ts): scripted turns that call the
 * todo tool and `echo` in the confined terminal (or a tool the gateway lacks) on chat (plain and
 * streamed), responses (plain and streamed), runs (with their events and the run's transcript) and
 * session chat (plain and streamed); and runs whose command Hermes' approval guard stops, answered
 * once, for the session, or denied. "always" is left to scenarios/tools/: it outlives the scenario
 * on the real gateway (config.yaml) until a reset.
 */
import type { Reply, ToolCall } from "@hermetic/script"
import * as fc from "fast-check"
import type { JsonValue } from "../../json/JsonValue.js"
import { type GenModel, type ModelRun, moveClock, newAlias, PAST_INSTANT, PAST_OFFSET, type ScenarioBuilder } from "../GenModel.js"
import { forwardSafe } from "./control.js"
import { command, type OperationCommands } from "./Operation.js"

type ToolKind = "todoWrite" | "todoMerge" | "todoRead" | "echo" | "unknown"
type Surface = "chat" | "chatStream" | "responses" | "responsesStream" | "run" | "session" | "sessionStream"
type Choice = "once" | "session" | "deny"

const WORDS = ["alpha", "beta", "gamma", "delta", "tools", "echo", "42", "x-y"]
const STATUSES = ["pending", "in_progress", "completed", "cancelled", "bogus"]
/** Commands the approval guard flags (SQL patterns: harmless once echoed). */
const FLAGGED = ["echo DROP TABLE gen", "echo delete from gen", "echo drop database gen"]

const toolCall = (kind: ToolKind, id: string, n: number, word: number): ToolCall => {
  const w = WORDS[word % WORDS.length] ?? "alpha"
  switch (kind) {
    case "todoWrite":
      return { id, name: "todo", arguments: { todos: [{ id: "1", content: `task ${w}`, status: STATUSES[word % STATUSES.length] ?? "pending" }, { id: "2", content: "", status: "pending" }] } }
    case "todoMerge":
      return { id, name: "todo", arguments: { todos: [{ id: "2", content: `merged ${w}`, status: "completed" }, { id: "3", content: "new", status: "pending" }], merge: true } }
    case "todoRead":
      return { id, name: "todo", arguments: {} }
    case "echo":
      return { id, name: "terminal", arguments: { command: `echo ${w} ${n}` } }
    case "unknown":
      return { id, name: "hermetic_missing_tool", arguments: { x: n } }
  }
}

/** One agent turn: a reply with the tool calls (in one round), then the final text. */
const toolTurn = (kinds: ReadonlyArray<ToolKind>, n: number, word: number, chunks: boolean): ReadonlyArray<Reply> => [
  { toolCalls: kinds.map((k, i) => toolCall(k, `call_gen${n}_${i}`, n, word + i)) },
  chunks ? { text: `tools done ${n}`, chunks: ["tools ", `done ${n}`] } : { text: `tools done ${n}` }
]

const request = (surface: Surface, n: number, session: string | undefined) => {
  const input = `use tools ${n}`
  switch (surface) {
    case "chat":
    case "chatStream":
      return { method: "POST", path: "/v1/chat/completions", body: { model: "hermes-agent", messages: [{ role: "user", content: input }], ...(surface === "chatStream" ? { stream: true } : {}) } as JsonValue }
    case "responses":
    case "responsesStream":
      return { method: "POST", path: "/v1/responses", body: { input, store: false, ...(surface === "responsesStream" ? { stream: true } : {}) } as JsonValue }
    case "session":
      return { method: "POST", path: `/api/sessions/{${session}.session.id}/chat`, body: { input } as JsonValue }
    case "sessionStream":
      return { method: "POST", path: `/api/sessions/{${session}.session.id}/chat/stream`, body: { input } as JsonValue }
    case "run":
      return { method: "POST", path: "/v1/runs", body: { input } as JsonValue }
  }
}

const settleRun = (m: GenModel, b: ScenarioBuilder, alias: string): ModelRun => {
  const run: ModelRun = { alias, phase: "terminal", settledAt: m.clock, eventsRead: true, clockMoved: false }
  b.add({ request: { method: "GET", path: `/v1/runs/{${alias}.run_id}` }, until: { terminal: true } })
  b.add({ request: { method: "GET", path: `/v1/runs/{${alias}.run_id}/events` } })
  b.add({ request: { method: "GET", path: `/api/sessions/{${alias}.run_id}/messages` } })
  m.runs.push(run)
  return run
}

const toolKinds = fc.array(fc.constantFrom<ToolKind>("todoWrite", "todoMerge", "todoRead", "echo", "echo", "unknown"), { minLength: 1, maxLength: 3 })

export const toolsOperation: OperationCommands = {
  id: "tools",
  profiles: ["tools"],
  requiresRoutes: ["chat.completions", "responses.create", "runs.create", "runs.approval", "sessions.create", "sessions.chat", "sessions.chat.stream"],
  commands: () => [
    fc
      .record({
        surface: fc.constantFrom<Surface>("chat", "chatStream", "responses", "responsesStream", "run", "session", "sessionStream"),
        kinds: toolKinds,
        word: fc.nat({ max: 20 }),
        chunks: fc.boolean()
      })
      .map(({ surface, kinds, word, chunks }) =>
        command(`tools.${surface}(${kinds.join("+")})`, () => true, (m, b) => {
          const n = ++m.aliasCount
          let session: string | undefined
          if (surface === "session" || surface === "sessionStream") {
            session = newAlias(m, "s")
            b.add({ request: { method: "POST", path: "/api/sessions", body: {} }, as: session })
          }
          b.script({ turns: [{ replies: toolTurn(kinds, n, word, chunks) }] })
          m.warmth = "warm"
          const alias = surface === "run" ? newAlias(m) : undefined
          b.add({ request: request(surface, n, session), ...(alias !== undefined ? { as: alias } : {}) })
          if (alias !== undefined) settleRun(m, b, alias)
          if (session !== undefined) b.add({ request: { method: "GET", path: `/api/sessions/{${session}.session.id}/messages` } })
        })
      ),
    fc
      .record({ choice: fc.constantFrom<Choice>("once", "session", "deny"), flagged: fc.nat({ max: FLAGGED.length - 1 }), twice: fc.boolean() })
      .map(({ choice, flagged, twice }) =>
        command(`tools.approval(${choice}${twice ? ", same pattern again" : ""})`, () => true, (m, b) => {
          const n = ++m.aliasCount
          const cmd = `${FLAGGED[flagged] ?? FLAGGED[0]} ${n}`
          const calls: Array<Reply> = [{ toolCalls: [{ id: `call_gen${n}_a`, name: "terminal", arguments: { command: cmd } }] }]
          // after "session" the same pattern runs without asking; after once/deny it asks again
          if (twice) calls.push({ toolCalls: [{ id: `call_gen${n}_b`, name: "terminal", arguments: { command: `${cmd} again` } }] })
          b.script({ turns: [{ replies: [...calls, { text: `approval ${choice} ${n}` }] }] })
          m.warmth = "warm"
          const alias = newAlias(m)
          b.add({ request: { method: "POST", path: "/v1/runs", body: { input: `flagged ${n}` } }, as: alias })
          const answer = () => {
            b.add({ request: { method: "GET", path: `/v1/runs/{${alias}.run_id}` }, until: { status: ["waiting_for_approval"] } })
            b.add({ request: { method: "POST", path: `/v1/runs/{${alias}.run_id}/approval`, body: { choice } } })
          }
          answer()
          if (twice && choice !== "session") answer()
          settleRun(m, b, alias)
        })
      ),
    // the approval wait's deadline is 60 s of monotonic time: a jump past it is a denial by silence;
    // a set to a past instant first puts it years away, so the answer after +61 s still counts
    fc.boolean().map((setPastFirst) =>
      command(`tools.approvalAcrossClock(${setPastFirst ? "set past, +61 s, answer" : "+61 s: timed out"})`, (m) => forwardSafe(m), (m, b) => {
        const n = ++m.aliasCount
        b.script({ turns: [{ replies: [{ toolCalls: [{ id: `call_gen${n}_t`, name: "terminal", arguments: { command: `${FLAGGED[0]} ${n}` } }] }, { text: `after the wait ${n}` }] }] })
        m.warmth = "warm"
        const alias = newAlias(m)
        const path = `/v1/runs/{${alias}.run_id}`
        b.add({ request: { method: "POST", path: "/v1/runs", body: { input: `flagged ${n}` } }, as: alias })
        b.add({ request: { method: "GET", path }, until: { status: ["waiting_for_approval"] } })
        if (setPastFirst) {
          b.add({ clock: { set: PAST_INSTANT } })
          moveClock(m, PAST_OFFSET - m.clock)
        }
        b.add({ clock: { advance: 61 } })
        moveClock(m, 61)
        if (setPastFirst) {
          b.add({ request: { method: "GET", path }, note: "still waiting: the deadline is years away on the loop clock" })
          b.add({ request: { method: "POST", path: `${path}/approval`, body: { choice: "once" } } })
          settleRun(m, b, alias)
        } else {
          settleRun(m, b, alias)
          b.add({ request: { method: "POST", path: `${path}/approval`, body: { choice: "once" } }, note: "too late: nothing pending" })
        }
      })
    )
  ]
}
