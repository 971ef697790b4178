/**
 * A `modelCalls` step's record: a synthetic exchange (GET of the control-plane route both targets
 * answer, no auth) whose JSON body is the view of the calls, so cassettes, the normalizer and the
 * differ treat it as any other exchange. The view is taken when the step is played: a cassette
 * keeps it, never the raw messages (Hermes' own system prompt stays out of the recording).
 */
import type { ReceivedCall } from "@hermetic/script"
import type { Exchange } from "../exchange/Exchange.js"
import { MODEL_CALLS_PATH, modelCallView } from "./ModelCallView.js"

export const modelCallsExchange = (calls: ReadonlyArray<ReceivedCall>): Exchange => ({
  request: { method: "GET", path: MODEL_CALLS_PATH, headers: {}, auth: "none" },
  response: {
    status: 200,
    headers: [["content-type", "application/json"]],
    body: { kind: "json", text: JSON.stringify(modelCallView(calls)) }
  }
})
