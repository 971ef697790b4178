/**
 * Live probe of the Responses API (POST /v1/responses, GET and DELETE /v1/responses/{id}) on the
 * real 0.19.0 gateway, with the oracle runner's fake model playing a Script for each case:
 *
 *   HERMES_BASE_URL=… API_SERVER_KEY=… FAKE_MODEL_URL=… node --import tsx bench/tools/probes/responses-0.19.0.mts
 *
 * Writes evidence/cassette-sources/live/responses-0.19.0.md. Cases run in order; later ones chain onto the ids of
 * earlier ones. Every case uses its own input text: the fake model repeats an error to a call with
 * the same messages as the last failed one, even across requests.
 */
import { writeFileSync } from "node:fs"
import type { Script } from "@hermetic/script"
import { fakeModel, journalEnd, modelCalls, type ProbeRequest, renderExchange, send, targetFromEnv } from "./probe.mjs"

const t = targetFromEnv()
const out: Array<string> = []
const ids = new Map<string, string>()

const post = (body: unknown, headers: Record<string, string> = {}): ProbeRequest => ({
  method: "POST",
  path: "/v1/responses",
  body,
  headers
})
const turn = (...replies: Script["turns"][number]["replies"]): Script => ({ turns: [{ replies }] })

const run = async (title: string, request: ProbeRequest, script?: Script, as?: string, note?: string) => {
  if (script !== undefined) await fakeModel(t, "POST", "/__admin/script", script)
  const from = await journalEnd(t)
  const res = await send(t, request)
  const calls = await modelCalls(t, from)
  if (as !== undefined) {
    const m = /"id": "(resp_[0-9a-f]+)"/.exec(res.body)
    if (m?.[1] !== undefined) ids.set(as, m[1])
  }
  const seen = calls.map((c) => `${c.kind} ${c.lastRole ?? ""}→${c.status ?? ""} (${c.messageCount ?? 0} msgs)`).join(", ")
  out.push(
    (script === undefined ? "" : `Script appended: \`${JSON.stringify(script)}\`\n\n`) +
      renderExchange(t, title, request, res, note) +
      `\nModel calls: ${seen === "" ? "none" : seen}\n`
  )
  process.stderr.write(`${title}: ${res.status}\n`)
}
const id = (name: string) => ids.get(name) ?? "resp_missing"

const usage = (p: number, c: number) => ({ prompt_tokens: p, completion_tokens: c })

// ---- answers
await run("text reply, non-streamed", post({ input: "hi" }), turn({ text: "Hello there", chunks: ["Hel", "lo there"], usage: usage(12, 3) }), "plain")
await run("text reply, streamed", post({ input: "hi stream", stream: true }), turn({ text: "Hello there", chunks: ["Hel", "lo there"], usage: usage(12, 3) }), "streamed")
await run(
  "tool call (no tools enabled), non-streamed",
  post({ input: "use a tool" }),
  turn({ toolCalls: [{ id: "call_abc", name: "terminal", arguments: { command: "ls" } }], usage: usage(10, 5) }, { text: "done", usage: usage(20, 2) }),
  "tool"
)
await run(
  "text, tool call, text — streamed",
  post({ input: "stream a tool", stream: true }),
  turn(
    { text: "Let me look.", toolCalls: [{ id: "call_s1", name: "terminal", arguments: { command: "ls" } }], usage: usage(10, 5) },
    { text: "All done", chunks: ["All ", "done"], usage: usage(20, 2) }
  )
)
await run(
  "three tool-call rounds in one turn (invalid-tool limit)",
  post({ input: "keep calling tools" }),
  turn(
    { toolCalls: [{ id: "call_1", name: "web_search", arguments: { q: "a" } }] },
    { toolCalls: [{ id: "call_2", name: "web_search", arguments: { q: "b" } }] },
    { toolCalls: [{ id: "call_3", name: "web_search", arguments: { q: "c" } }] },
    { text: "never reached" }
  )
)
await run("model error 400, non-streamed", post({ input: "fail with 400" }), turn({ error: { status: 400, message: "synthetic failure" } }))
await run("model error 400, streamed", post({ input: "stream fail with 400", stream: true }), turn({ error: { status: 400, message: "synthetic failure" } }))
await run("model error 500 (retried), non-streamed", post({ input: "fail with 500" }), turn({ error: { status: 500, message: "boom" } }))
await run("instructions, model and store=false", post({ input: "not stored", instructions: "be brief", model: "gpt-4o", store: false }), turn({ text: "unstored" }), "unstored")

// ---- chaining
await run("chain onto the tool turn", post({ input: "and then?", previous_response_id: id("tool") }), turn({ text: "second", usage: usage(1, 1) }), "chain2")
await run("chain depth 3", post({ input: "and after that?", previous_response_id: id("chain2") }), turn({ text: "third", usage: usage(1, 1) }))
await run("chain onto a plain text turn", post({ input: "more please", previous_response_id: id("plain") }), turn({ text: "more" }))
await run("input list of strings and messages", post({ input: ["first", { role: "assistant", content: "ok" }, { role: "user", content: [{ type: "input_text", text: "last" }] }] }), turn({ text: "listed" }))
await run("explicit conversation_history", post({ input: "q", conversation_history: [{ role: "user", content: "earlier" }, { role: "assistant", content: "noted" }] }), turn({ text: "with history" }))
await run("named conversation, first turn", post({ input: "conv one", conversation: "c-probe" }), turn({ text: "c1" }), "conv1")
await run("named conversation, second turn", post({ input: "conv two", conversation: "c-probe" }), turn({ text: "c2" }), "conv2")
await run("Idempotency-Key, first", post({ input: "idem" }, { "Idempotency-Key": "k-probe-1" }), turn({ text: "idem answer" }))
await run("Idempotency-Key, identical retry", post({ input: "idem" }, { "Idempotency-Key": "k-probe-1" }), turn({ text: "should stay queued" }))
await run("Idempotency-Key, same key, other body", post({ input: "idem other" }, { "Idempotency-Key": "k-probe-1" }))

// ---- stored responses
await run("GET a stored response", { method: "GET", path: `/v1/responses/${id("tool")}` })
await run("GET a streamed response", { method: "GET", path: `/v1/responses/${id("streamed")}` })
await run("GET a store=false response", { method: "GET", path: `/v1/responses/${id("unstored")}` })
await run("DELETE a stored response", { method: "DELETE", path: `/v1/responses/${id("conv2")}` })
await run("DELETE it again", { method: "DELETE", path: `/v1/responses/${id("conv2")}` })
await run("conversation after its latest response was deleted", post({ input: "conv three", conversation: "c-probe" }), turn({ text: "c3" }))
await run("GET unknown", { method: "GET", path: "/v1/responses/resp_nope" })
await run("GET without a key", { method: "GET", path: "/v1/responses/resp_nope", auth: "none" })
await run("POST with a wrong key", { ...post({ input: "hi" }), auth: "wrong" })

// ---- bad input
const bad: ReadonlyArray<readonly [string, ProbeRequest]> = [
  ["invalid JSON", { method: "POST", path: "/v1/responses", raw: "{bad" }],
  ["body is a JSON list", { method: "POST", path: "/v1/responses", raw: "[1, 2]" }],
  ["missing input", post({})],
  ["input null", post({ input: null })],
  ["input is a number", post({ input: 5 })],
  ["input is an object", post({ input: { a: 1 } })],
  ["input is an empty string", post({ input: "" })],
  ["input is blank", post({ input: "   " })],
  ["input is an empty list", post({ input: [] })],
  ["input list of numbers only", post({ input: [1, 2] })],
  ["conversation and previous_response_id together", post({ input: "hi", conversation: "c", previous_response_id: "resp_x" })],
  ["unknown previous_response_id", post({ input: "hi", previous_response_id: "resp_nope" })],
  ["previous_response_id is an object", post({ input: "hi", previous_response_id: { a: 1 } })],
  ["conversation_history is a string", post({ input: "hi", conversation_history: "x" })],
  ["conversation_history entry without content", post({ input: "hi", conversation_history: [{ role: "user" }] })],
  ["conversation_history entry with a file part", post({ input: "hi", conversation_history: [{ role: "user", content: [{ type: "file", file_id: "f" }] }] })],
  ["input file part", post({ input: [{ role: "user", content: [{ type: "input_file", file_id: "f" }] }] })],
  ["input unknown part type", post({ input: [{ role: "user", content: [{ type: "weird" }] }] })],
  ["input part without a type", post({ input: [{ role: "user", content: [{ text: "x" }] }] })],
  ["input image with an ftp URL", post({ input: [{ role: "user", content: [{ type: "input_image", image_url: "ftp://x" }] }] })],
  ["input image data URL that is not an image", post({ input: [{ role: "user", content: [{ type: "input_image", image_url: "data:text/plain,hi" }] }] })],
  ["input image with a blank detail", post({ input: [{ role: "user", content: [{ type: "input_image", image_url: "https://e.x/a.png", detail: " " }] }] })],
  ["last input item has only an image (accepted)", post({ input: [{ role: "user", content: [{ type: "input_image", image_url: "https://e.x/a.png" }] }] })],
  ["X-Hermes-Session-Key with a newline-free but overlong value", post({ input: "hi" }, { "X-Hermes-Session-Key": "k".repeat(300) })]
]
for (const [title, request] of bad) await run(title, request)

const now = new Date().toISOString()
writeFileSync(
  new URL("../../../evidence/cassette-sources/live/responses-0.19.0.md", import.meta.url),
  [
    "# Responses API — real hermes-agent 0.19.0",
    "",
    `Observed ${now} with bench/tools/probes/responses-0.19.0.mts against \`oracle-runner\` (process launcher,`,
    "strict determinism: no tools enabled, the oracle runner's fake model). Each case: the Script appended to the fake",
    "model, the request, the raw response, and the model calls the fake model journaled during the request. Cases run",
    "in order on one gateway; response ids from earlier cases are reused by later ones.",
    "",
    ...out
  ].join("\n")
)
