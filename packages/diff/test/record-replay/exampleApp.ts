/**
 * A small application of Hermes, used to prove record and replay: it talks to whatever base URL
 * it is given (the real gateway through the recorder, then the replayer) and returns what it saw.
 */
import type { Script } from "@hermetic/script"

/** What the fake model behind the real gateway says, one turn per agent turn of the app. */
export const EXAMPLE_SCRIPT: Script = {
  turns: [
    { replies: [{ text: "2 + 2 = 4", usage: { prompt_tokens: 9, completion_tokens: 5 } }] },
    { replies: [{ text: "Once upon a time", chunks: ["Once ", "upon ", "a time"] }] },
    { replies: [{ text: "The run is done", chunks: ["The run ", "is done"] }] },
    { replies: [{ text: "Stored answer" }] }
  ]
}

export interface Seen {
  readonly status: number
  readonly contentType: string | null
  readonly body: string
}

export interface AppObservations {
  readonly health: Seen
  readonly chat: Seen
  readonly chatStream: Seen
  readonly runCreated: Seen
  readonly runEvents: Seen
  readonly runFinal: Seen
  readonly response: Seen
  readonly responseFetched: Seen
  readonly unauthorized: Seen
}

export const runExampleApp = async (baseUrl: string, apiKey: string): Promise<AppObservations> => {
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }
  const call = async (method: string, path: string, body?: unknown, auth = true): Promise<Seen> => {
    const res = await fetch(`${baseUrl}${path}`, { method, headers: auth ? headers : {}, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    return { status: res.status, contentType: res.headers.get("content-type"), body: await res.text() }
  }
  const health = await call("GET", "/health", undefined, false)
  const chat = await call("POST", "/v1/chat/completions", { model: "hermes-agent", messages: [{ role: "user", content: "What is 2 + 2?" }] })
  const chatStream = await call("POST", "/v1/chat/completions", { model: "hermes-agent", stream: true, messages: [{ role: "user", content: "Tell me a story" }] })
  const runCreated = await call("POST", "/v1/runs", { input: "Do the run" })
  const runId = String((JSON.parse(runCreated.body) as Record<string, unknown>)["run_id"])
  const runEvents = await call("GET", `/v1/runs/${runId}/events`)
  let runFinal = await call("GET", `/v1/runs/${runId}`)
  for (let i = 0; i < 100 && (JSON.parse(runFinal.body) as Record<string, unknown>)["status"] === "running"; i++) {
    await new Promise((r) => setTimeout(r, 100))
    runFinal = await call("GET", `/v1/runs/${runId}`)
  }
  const response = await call("POST", "/v1/responses", { model: "hermes-agent", input: "Remember this" })
  const responseId = String((JSON.parse(response.body) as Record<string, unknown>)["id"])
  const responseFetched = await call("GET", `/v1/responses/${responseId}`)
  const unauthorized = await call("GET", "/v1/models", undefined, false)
  return { health, chat, chatStream, runCreated, runEvents, runFinal, response, responseFetched, unauthorized }
}
