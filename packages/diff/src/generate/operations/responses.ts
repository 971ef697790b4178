/** /v1/responses: create (plain, streamed, chained to an earlier response), get, delete, rejected bodies. */
import * as fc from "fast-check"
import type { JsonValue } from "../../json/JsonValue.js"
import { newAlias, pickEntity } from "../GenModel.js"
import { command, type OperationCommands } from "./Operation.js"
import { plainReply, plainTurn } from "./replies.js"

export const responsesOperation: OperationCommands = {
  id: "responses",
  requiresRoutes: ["responses.create", "responses.get", "responses.delete"],
  commands: () => [
    fc.record({ kind: plainTurn, stream: fc.boolean(), chain: fc.option(fc.nat(), { freq: 2 }) }).map(({ kind, stream, chain }) =>
      command(`createResponse(${kind}${stream ? ", stream" : ""}${chain !== null ? ", chained" : ""})`, () => true, (m, b) => {
        const previous = chain === null ? undefined : pickEntity(m.responses, chain, true)
        const alias = newAlias(m, "resp")
        const body: JsonValue = {
          input: `response input ${m.aliasCount}`,
          ...(stream ? { stream: true } : {}),
          ...(previous !== undefined ? { previous_response_id: `{${previous.alias}.id}` } : {})
        }
        b.script({ turns: [{ replies: [plainReply(kind, m.aliasCount)] }] })
        m.warmth = "warm"
        // a streamed answer has no JSON body to name, and a failed one stores nothing
        b.add({ request: { method: "POST", path: "/v1/responses", body }, ...(stream || kind === "error" ? {} : { as: alias }) })
        if (!stream && kind !== "error" && (previous === undefined || !previous.deleted)) m.responses.push({ alias, deleted: false })
      })
    ),
    fc.nat().map((pick) =>
      command("getResponse", (m) => m.responses.length > 0, (m, b) => {
        const r = pickEntity(m.responses, pick, true)
        if (r !== undefined) b.add({ request: { method: "GET", path: `/v1/responses/{${r.alias}.id}` } })
      })
    ),
    fc.nat().map((pick) =>
      command("deleteResponse", (m) => m.responses.length > 0, (m, b) => {
        const r = pickEntity(m.responses, pick, true)
        if (r === undefined) return
        b.add({ request: { method: "DELETE", path: `/v1/responses/{${r.alias}.id}` } })
        r.deleted = true
      })
    ),
    fc.constantFrom<JsonValue>({}, { input: "" }, { input: 7 }, { input: "x", previous_response_id: "resp_0000000000000000000000000000" }).map((body) =>
      command(`responseRejected(${JSON.stringify(body)})`, () => true, (_m, b) => b.add({ request: { method: "POST", path: "/v1/responses", body } }))
    )
  ]
}
