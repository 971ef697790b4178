/**
 * Live probe of POST /v1/chat/completions on the real 0.19.0 gateway, with the oracle runner's fake
 * model playing a Script for each case:
 *
 *   HERMES_BASE_URL=… API_SERVER_KEY=… FAKE_MODEL_URL=… node --import tsx bench/tools/probes/chat-completions-0.19.0.mts [filter]
 *
 * Writes evidence/cassette-sources/live/chat-completions-0.19.0.md (or -<filter>.md with a filter). Each case
 * records the Script, the request, the raw response and the model calls the fake model saw.
 */
import { writeFileSync } from "node:fs"
import type { Script } from "@hermetic/script"
import { fakeModel, journalEnd, modelCalls, type ProbeRequest, renderExchange, send, targetFromEnv } from "./probe.mjs"

const t = targetFromEnv()
const filter = process.argv[2]

interface Case {
  readonly title: string
  readonly script?: Script
  readonly request: ProbeRequest
  readonly note?: string
  /** Runs after the request is sent (e.g. releasing a hold) while the response is pending. */
  readonly during?: () => Promise<void>
}

const chat = (body: unknown, headers: Record<string, string> = {}): ProbeRequest => ({
  method: "POST",
  path: "/v1/chat/completions",
  body,
  headers
})
const user = (content: unknown) => ({ messages: [{ role: "user", content }] })
const turn = (...replies: Script["turns"][number]["replies"]) => ({ turns: [{ replies }] })

const cases: ReadonlyArray<Case> = [
  // ---- happy paths
  {
    title: "non-streaming, system prompt, scripted usage",
    script: turn({ text: "Hello there", chunks: ["Hel", "lo there"], usage: { prompt_tokens: 12, completion_tokens: 3 } }),
    request: chat({ model: "hermes-agent", messages: [{ role: "system", content: "be brief" }, { role: "user", content: "hi" }] })
  },
  {
    title: "streaming with a session key and a foreign model name",
    script: turn({ text: "Hello there", chunks: ["Hel", "lo there"], usage: { prompt_tokens: 12, completion_tokens: 3 } }),
    request: chat({ model: "gpt-4o", stream: true, messages: [{ role: "user", content: "hi" }] }, {
      "X-Hermes-Session-Key": "agent:main:webui:dm:user-42"
    })
  },
  {
    title: "stream given as the string \"false\" (not streamed)",
    script: turn({ text: "plain" }),
    request: chat({ stream: "false", ...user("hi") })
  },
  {
    title: "no model in the body; the reply has no usage",
    script: turn({ text: "no usage given" }),
    request: chat(user("hello"))
  },
  {
    title: "explicit X-Hermes-Session-Id (history from state.db)",
    script: turn({ text: "continued" }),
    request: chat(user("hi again"), { "X-Hermes-Session-Id": "my-session-1" })
  },
  {
    title: "content parts: text parts and an https image",
    script: turn({ text: "seen" }),
    request: chat(user([
      { type: "text", text: "look" },
      { type: "input_text", text: "at this" },
      { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "low" } }
    ]))
  },
  {
    title: "content parts: inline data:image URL",
    script: turn({ text: "seen inline" }),
    request: chat(user([{ type: "text", text: "what is it" }, { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" }]))
  },
  {
    title: "last kept message is an assistant message",
    script: turn({ text: "assistant-last" }),
    request: chat({ messages: [{ role: "user", content: "first" }, { role: "tool", content: "ignored" }, { role: "assistant", content: "last" }] })
  },
  // ---- what the agent makes of the Script
  {
    title: "model reply with finish_reason length",
    script: turn({ text: "cut off mid", finishReason: "length", usage: { prompt_tokens: 5, completion_tokens: 4 } }),
    request: chat(user("long please"))
  },
  {
    title: "a tool call, then text (non-streaming)",
    script: turn(
      { toolCalls: [{ id: "call_1", name: "todo", arguments: { todos: [] } }], usage: { prompt_tokens: 10, completion_tokens: 2 } },
      { text: "after tool", usage: { prompt_tokens: 20, completion_tokens: 3 } }
    ),
    request: chat(user("use a tool"))
  },
  {
    title: "a tool call, then text (streaming)",
    script: turn(
      { toolCalls: [{ id: "call_2", name: "todo", arguments: { todos: [] } }], usage: { prompt_tokens: 10, completion_tokens: 2 } },
      { text: "after tool", chunks: ["after ", "tool"], usage: { prompt_tokens: 20, completion_tokens: 3 } }
    ),
    request: chat({ stream: true, ...user("use a tool, streaming") })
  },
  {
    title: "empty model reply",
    script: turn({ text: "" }),
    request: chat(user("say nothing"))
  },
  {
    title: "model error 400 (non-streaming)",
    script: turn({ error: { status: 400, message: "synthetic failure" } }),
    request: chat(user("fail 400"))
  },
  {
    title: "model error 400 (streaming)",
    script: turn({ error: { status: 400, message: "synthetic failure" } }),
    request: chat({ stream: true, ...user("fail 400 streaming") })
  },
  {
    title: "model error 401",
    script: turn({ error: { status: 401, message: "bad model key" } }),
    request: chat(user("fail 401"))
  },
  {
    title: "model error 404",
    script: turn({ error: { status: 404, message: "no such thing" } }),
    request: chat(user("fail 404"))
  },
  {
    title: "model error 422",
    script: turn({ error: { status: 422, message: "unprocessable" } }),
    request: chat(user("fail 422"))
  },
  {
    title: "model error 500",
    script: turn({ error: { status: 500, message: "upstream exploded" } }),
    request: chat(user("fail 500"))
  },
  {
    title: "model error 503",
    script: turn({ error: { status: 503, message: "overloaded now" } }),
    request: chat(user("fail 503"))
  },
  {
    title: "model error 429",
    script: turn({ error: { status: 429, message: "slow down" } }),
    request: chat(user("fail 429"))
  },
  // ---- idempotency
  {
    title: "Idempotency-Key k-1, first request",
    script: turn({ text: "first answer", usage: { prompt_tokens: 7, completion_tokens: 2 } }),
    request: chat(user("idem"), { "Idempotency-Key": "k-1" })
  },
  {
    title: "Idempotency-Key k-1, identical retry (script has a turn queued that must not be used)",
    script: turn({ text: "second answer" }),
    request: chat(user("idem"), { "Idempotency-Key": "k-1" })
  },
  {
    title: "Idempotency-Key k-1, different body (uses the queued turn)",
    request: chat(user("idem changed"), { "Idempotency-Key": "k-1" })
  },
  {
    title: "Idempotency-Key k-1 on a streaming request (the cache is not used)",
    script: turn({ text: "streamed anew" }),
    request: chat({ stream: true, ...user("idem") }, { "Idempotency-Key": "k-1" })
  },
  // ---- bad input
  { title: "invalid JSON", request: { method: "POST", path: "/v1/chat/completions", raw: "{nope" } },
  { title: "empty body", request: { method: "POST", path: "/v1/chat/completions", raw: "" } },
  { title: "body is a JSON list", request: chat([1, 2]) },
  { title: "messages missing", request: chat({ model: "x" }) },
  { title: "messages empty", request: chat({ messages: [] }) },
  { title: "messages an object", request: chat({ messages: { role: "user" } }) },
  { title: "a message that is a string", request: chat({ messages: ["hi"] }) },
  { title: "only a system message", request: chat({ messages: [{ role: "system", content: "sys" }] }) },
  { title: "blank user content", request: chat(user("   ")) },
  { title: "content null", request: chat(user(null)) },
  { title: "content a number", request: chat(user(42)) },
  { title: "file part", request: chat(user([{ type: "file", file: { file_id: "f1" } }])) },
  { title: "unknown part type", request: chat(user([{ type: "audio", data: "x" }])) },
  { title: "part type missing", request: chat(user([{ text: "x" }])) },
  { title: "data: URL that is not an image", request: chat(user([{ type: "image_url", image_url: { url: "data:text/plain;base64,aGk=" } }])) },
  { title: "data:image URL without a comma", request: chat(user([{ type: "image_url", image_url: { url: "data:image/png;base64" } }])) },
  { title: "ftp image URL", request: chat(user([{ type: "image_url", image_url: { url: "ftp://x/y.png" } }])) },
  { title: "image part without URL", request: chat(user([{ type: "image_url", image_url: {} }])) },
  { title: "image detail empty", request: chat(user([{ type: "image_url", image_url: { url: "https://x/y.png", detail: " " } }])) },
  { title: "image detail not a string", request: chat(user([{ type: "image_url", image_url: { url: "https://x/y.png", detail: 3 } }])) },
  {
    title: "bad part in an earlier message (param index)",
    request: chat({ messages: [{ role: "system", content: "s" }, { role: "user", content: [{ type: "file" }] }, { role: "user", content: "ok" }] })
  },
  { title: "X-Hermes-Session-Id with a path separator", request: chat(user("hi"), { "X-Hermes-Session-Id": "../etc" }) },
  { title: "X-Hermes-Session-Id of 257 characters", request: chat(user("hi"), { "X-Hermes-Session-Id": "s".repeat(257) }) },
  { title: "X-Hermes-Session-Key of 257 characters", request: chat(user("hi"), { "X-Hermes-Session-Key": "k".repeat(257) }) },
  { title: "wrong key", request: { ...chat(user("hi")), auth: "wrong" } },
  { title: "no key, invalid JSON (auth first)", request: { method: "POST", path: "/v1/chat/completions", raw: "{nope", auth: "none" } },
  {
    title: "stream with a held reply (keepalive after 30 s of silence)",
    script: turn({ hold: "h-keepalive", text: "late", chunks: ["la", "te"] }),
    request: chat({ stream: true, ...user("wait for it") }),
    during: async () => {
      await new Promise((f) => setTimeout(f, 33_000))
      await fakeModel(t, "POST", "/__admin/holds/h-keepalive/release")
    }
  }
]

const out: Array<string> = [
  "# POST /v1/chat/completions — real hermes-agent 0.19.0",
  "",
  `Observed ${new Date().toISOString()} with bench/tools/probes/chat-completions-0.19.0.mts against \`oracle-runner\``,
  "(process launcher, strict determinism, the oracle runner's fake model). Each case: the Script appended to the",
  "fake model, the request, the raw response, and the model calls the fake model journaled during the request.",
  ""
]
for (const c of cases) {
  if (filter !== undefined && !c.title.includes(filter)) continue
  if (c.script !== undefined) await fakeModel(t, "POST", "/__admin/script", c.script)
  const from = await journalEnd(t)
  const pending = send(t, c.request)
  if (c.during !== undefined) await c.during()
  const res = await pending
  const calls = await modelCalls(t, from)
  const callText = calls.length === 0
    ? "Model calls: none."
    : "Model calls:\n\n" + calls.map((e) =>
      `- ${e.kind} stream=${String(e.stream)} messages=${String(e.messageCount)} last=${String(e.lastRole)} → status ${String(e.status)} ${JSON.stringify(e.reply)}`
    ).join("\n")
  const scriptText = c.script === undefined ? "Script: none appended." : `Script appended: \`${JSON.stringify(c.script)}\``
  out.push(renderExchange(t, c.title, c.request, res, [c.note, scriptText].filter((x) => x !== undefined).join("\n\n")))
  out.push(callText, "")
  process.stdout.write(`${c.title}: ${res.status}\n`)
}
const name = filter === undefined ? "chat-completions-0.19.0.md" : `chat-completions-0.19.0-${filter.replace(/\W+/g, "-")}.md`
writeFileSync(new URL(`../../../evidence/cassette-sources/live/${name}`, import.meta.url), out.join("\n"))
process.stdout.write(`wrote evidence/cassette-sources/live/${name}\n`)
