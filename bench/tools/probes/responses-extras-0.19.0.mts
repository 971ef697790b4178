/**
 * Live probe of what the replayable Responses evidence cannot hold, on the real 0.19.0 gateway:
 * a streaming client that goes away while the reply is held (what GET then shows), and /v1/runs
 * chaining onto a stored response (the run's session_id).
 *
 *   HERMES_BASE_URL=… API_SERVER_KEY=… FAKE_MODEL_URL=… node --import tsx bench/tools/probes/responses-extras-0.19.0.mts
 *
 * Writes evidence/cassette-sources/live/responses-extras-0.19.0.md.
 */
import { writeFileSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { fakeModel, type ProbeRequest, renderExchange, send, targetFromEnv } from "./probe.mjs"

const t = targetFromEnv()
const out: Array<string> = []
const sleep = (ms: number) => new Promise((f) => setTimeout(f, ms))
const record = async (title: string, r: ProbeRequest, note?: string) => {
  const res = await send(t, r)
  out.push(renderExchange(t, title, r, res, note))
  process.stderr.write(`${title}: ${res.status}\n`)
  return res
}

// ---- a streaming client that disconnects while the reply is held
await fakeModel(t, "POST", "/__admin/script", { turns: [{ replies: [{ hold: "hx", text: "too late" }] }] })
const firstChunk = await new Promise<string>((resolve, reject) => {
  const body = JSON.stringify({ input: "stream then vanish", stream: true })
  const req = httpRequest(new URL("/v1/responses", t.baseUrl), {
    method: "POST",
    headers: { Authorization: `Bearer ${t.apiKey}`, "Content-Type": "application/json" }
  }, (res) => {
    res.once("data", (c: Buffer) => {
      resolve(c.toString("utf8"))
      req.destroy()
    })
  })
  req.on("error", () => {})
  setTimeout(() => reject(new Error("no first chunk")), 10_000)
  req.end(body)
})
const streamedId = /"id": "(resp_[0-9a-f]+)"/.exec(firstChunk)?.[1] ?? "resp_missing"
out.push(
  "### streamed request, client disconnects after the first event while the reply is held\n\n" +
    "Request: `POST /v1/responses` `{\"input\":\"stream then vanish\",\"stream\":true}` with a held reply; the client read the\n" +
    "first chunk and closed the connection. First chunk received:\n\n```\n" + firstChunk + "```\n"
)
await record("GET it while the reply is still held", { method: "GET", path: `/v1/responses/${streamedId}` })
await fakeModel(t, "POST", `/__admin/holds/hx/release`)
await sleep(1500)
await record("GET it after the held reply was released", { method: "GET", path: `/v1/responses/${streamedId}` })

// ---- /v1/runs chained onto a stored response
await fakeModel(t, "POST", "/__admin/script", { turns: [{ replies: [{ text: "stored" }] }, { replies: [{ text: "run output" }] }, { replies: [{ text: "unchained run" }] }] })
const stored = await record("a stored response to chain from", { method: "POST", path: "/v1/responses", body: { input: "chain source" } })
const storedId = /"id": "(resp_[0-9a-f]+)"/.exec(stored.body)?.[1] ?? "resp_missing"
const runOf = async (title: string, body: unknown) => {
  const created = await record(title, { method: "POST", path: "/v1/runs", body })
  const runId = /"run_id": "(run_[0-9a-f]+)"/.exec(created.body)?.[1] ?? "run_missing"
  for (let i = 0; i < 100; i++) {
    const r = await send(t, { method: "GET", path: `/v1/runs/${runId}` })
    if (r.body.includes('"status": "completed"') || r.body.includes('"status": "failed"')) break
    await sleep(100)
  }
  await record(`${title}: settled status`, { method: "GET", path: `/v1/runs/${runId}` })
}
await runOf("run with previous_response_id", { input: "continue as a run", previous_response_id: storedId })
await runOf("run with an unknown previous_response_id", { input: "no such chain", previous_response_id: "resp_nope" })

writeFileSync(
  new URL("../../../evidence/cassette-sources/live/responses-extras-0.19.0.md", import.meta.url),
  [
    "# Responses API extras — real hermes-agent 0.19.0",
    "",
    `Observed ${new Date().toISOString()} with bench/tools/probes/responses-extras-0.19.0.mts against \`oracle-runner\``,
    "(process launcher, strict determinism, the oracle runner's fake model).",
    "",
    ...out
  ].join("\n")
)
