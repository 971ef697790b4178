/**
 * Live probe: `event: hermes.tool.progress` frames on a streamed chat completion. Needs a gateway whose
 * api_server platform has tools enabled — `oracle-runner` with `determinism: "upstream-defaults"`
 * (the strict home enables no toolset, and then a tool call produces no progress frame at all).
 *
 *   HERMES_BASE_URL=… API_SERVER_KEY=… FAKE_MODEL_URL=… node --import tsx bench/tools/probes/chat-tool-progress-0.19.0.mts
 */
import { writeFileSync } from "node:fs"
import { fakeModel, journalEnd, modelCalls, type ProbeRequest, renderExchange, send, targetFromEnv } from "./probe.mjs"

const t = targetFromEnv()
const cases: ReadonlyArray<{ title: string; script: unknown; request: ProbeRequest }> = [
  {
    title: "streamed: todo tool call, then text",
    script: { turns: [{ replies: [
      { toolCalls: [{ id: "call_todo_1", name: "todo", arguments: { todos: [{ id: "1", content: "write tests", status: "pending" }] } }], usage: { prompt_tokens: 10, completion_tokens: 2 } },
      { text: "done", chunks: ["do", "ne"], usage: { prompt_tokens: 20, completion_tokens: 3 } }
    ] }] },
    request: { method: "POST", path: "/v1/chat/completions", body: { stream: true, messages: [{ role: "user", content: "plan it" }] } }
  },
  {
    title: "streamed: a tool name the gateway does not have",
    script: { turns: [{ replies: [
      { toolCalls: [{ id: "call_nope_1", name: "no_such_tool", arguments: {} }] },
      { text: "recovered" }
    ] }] },
    request: { method: "POST", path: "/v1/chat/completions", body: { stream: true, messages: [{ role: "user", content: "call a missing tool" }] } }
  },
  {
    title: "non-streamed: todo tool call, then text",
    script: { turns: [{ replies: [
      { toolCalls: [{ id: "call_todo_2", name: "todo", arguments: { todos: [] } }], usage: { prompt_tokens: 1, completion_tokens: 1 } },
      { text: "listed", usage: { prompt_tokens: 2, completion_tokens: 2 } }
    ] }] },
    request: { method: "POST", path: "/v1/chat/completions", body: { messages: [{ role: "user", content: "list todos" }] } }
  }
]
const out: Array<string> = [
  "# hermes.tool.progress on /v1/chat/completions — real hermes-agent 0.19.0",
  "",
  `Observed ${new Date().toISOString()} with bench/tools/probes/chat-tool-progress-0.19.0.mts against \`oracle-runner\``,
  "with `determinism: upstream-defaults` (Hermes' default toolsets for the api_server platform).",
  ""
]
for (const c of cases) {
  await fakeModel(t, "POST", "/__admin/script", c.script)
  const from = await journalEnd(t)
  const res = await send(t, c.request)
  const calls = await modelCalls(t, from)
  out.push(renderExchange(t, c.title, c.request, res, `Script appended: \`${JSON.stringify(c.script)}\``))
  out.push("Model calls:\n\n" + calls.map((e) => `- ${e.kind} stream=${String(e.stream)} messages=${String(e.messageCount)} last=${String(e.lastRole)} → status ${String(e.status)} ${JSON.stringify(e.reply)}`).join("\n"), "")
  process.stdout.write(`${c.title}: ${res.status}\n`)
}
writeFileSync(new URL("../../../evidence/cassette-sources/live/chat-tool-progress-0.19.0.md", import.meta.url), out.join("\n"))
