/**
 * /api/sessions: create, get, retitle, chat (plain and streamed), messages, fork, delete. Listing
 * is left out: the real gateway's session database outlives every scenario of a comparison, the
 * emulator's namespace does not, so a list would differ for reasons that are not behaviour.
 */
import * as fc from "fast-check"
import { newAlias, pickEntity } from "../GenModel.js"
import { command, type OperationCommands } from "./Operation.js"
import { plainReply, plainTurn } from "./replies.js"

const sessionPath = (alias: string, suffix = "") => `/api/sessions/{${alias}.session.id}${suffix}`

export const sessionsOperation: OperationCommands = {
  id: "sessions",
  requiresRoutes: ["sessions.create", "sessions.get", "sessions.delete", "sessions.messages", "sessions.fork", "sessions.chat", "sessions.chat.stream"],
  commands: () => [
    fc.constant(
      command("createSession", () => true, (m, b) => {
        const alias = newAlias(m, "s")
        b.add({ request: { method: "POST", path: "/api/sessions", body: {} }, as: alias })
        m.sessions.push({ alias, deleted: false })
      })
    ),
    fc.record({ pick: fc.nat(), what: fc.constantFrom("", "/messages") }).map(({ pick, what }) =>
      command(`readSession(${what || "metadata"})`, (m) => m.sessions.length > 0, (m, b) => {
        const s = pickEntity(m.sessions, pick, true)
        if (s !== undefined) b.add({ request: { method: "GET", path: sessionPath(s.alias, what) } })
      })
    ),
    fc.record({ pick: fc.nat(), kind: plainTurn, stream: fc.boolean() }).map(({ pick, kind, stream }) =>
      command(`sessionChat(${kind}${stream ? ", stream" : ""})`, (m) => m.sessions.some((s) => !s.deleted), (m, b) => {
        const s = pickEntity(m.sessions, pick, false)
        if (s === undefined) return
        b.script({ turns: [{ replies: [plainReply(kind, ++m.aliasCount)] }] })
        m.warmth = "warm"
        b.add({ request: { method: "POST", path: sessionPath(s.alias, stream ? "/chat/stream" : "/chat"), body: { input: `session turn ${m.aliasCount}` } } })
      })
    ),
    fc.nat().map((pick) =>
      command("retitleSession", (m) => m.sessions.length > 0, (m, b) => {
        const s = pickEntity(m.sessions, pick, true)
        // titles are unique across the whole database: {play.nonce} keeps earlier plays' titles out of the way
        if (s !== undefined) b.add({ request: { method: "PATCH", path: sessionPath(s.alias), body: { title: `title ${++m.aliasCount} {play.nonce}` } } })
      })
    ),
    fc.nat().map((pick) =>
      command("forkSession", (m) => m.sessions.some((s) => !s.deleted), (m, b) => {
        const s = pickEntity(m.sessions, pick, false)
        if (s === undefined) return
        const alias = newAlias(m, "s")
        // an untitled fork is titled "fork #N" by the forks already in the database: shared between
        // scenarios on one gateway, so a title of its own (unique by {play.nonce}); the default
        // lineage title is compared by scenarios/sessions.json, exactly under --fresh
        b.add({ request: { method: "POST", path: sessionPath(s.alias, "/fork"), body: { title: `fork ${++m.aliasCount} {play.nonce}` } }, as: alias })
        m.sessions.push({ alias, deleted: false })
      })
    ),
    fc.nat().map((pick) =>
      command("deleteSession", (m) => m.sessions.length > 0, (m, b) => {
        const s = pickEntity(m.sessions, pick, true)
        if (s === undefined) return
        b.add({ request: { method: "DELETE", path: sessionPath(s.alias) } })
        s.deleted = true
      })
    ),
    fc.constant(command("getUnknownSession", () => true, (_m, b) => b.add({ request: { method: "GET", path: "/api/sessions/api_0000000000_deadbeef" } })))
  ]
}
