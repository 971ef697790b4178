/**
 * A fixed tour of the real gateway's HTTP surface, recorded as evidence for the emulator team:
 * health, auth failures, unknown routes, validation errors, a scripted chat completion (plain and
 * streamed), a scripted run held → running → released → completed with its event stream, a stop,
 * model errors of several statuses, /v1/responses, and Idempotency-Key on /v1/runs.
 */
import type { Script } from "@hermetic/script"
import type { Gateway } from "../gateway/Gateway.js"
import type { JournalEntry } from "../fake-model/Journal.js"
import { makeRecorder, type Exchange } from "./Exchange.js"

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export const summarizeCalls = (entries: ReadonlyArray<JournalEntry>): string => {
  const main = entries.filter((e) => e.kind === "main")
  const hk = entries.filter((e) => e.kind === "housekeeping")
  const probes = entries.filter((e) => e.kind === "probe" || e.kind === "models")
  const statuses = main.map((e) => `${e.status ?? "-"}${e.stream ? "/sse" : ""}`).join(",")
  return `${main.length} main (${statuses || "none"}), ${hk.length} housekeeping${hk.length ? ` (${hk.map((e) => e.housekeeping).join(",")})` : ""}, ${probes.length} probe GETs`
}

export type ProbeResult = { readonly exchanges: ReadonlyArray<Exchange>; readonly findings: ReadonlyArray<string> }

export const runLiveProbe = async (gw: Gateway, progress: (l: string) => void): Promise<ProbeResult> => {
  const rec = makeRecorder(gw.baseUrl, gw.apiKey, () => gw.journal().length, (from) => summarizeCalls(gw.journal().slice(from)))
  const findings: Array<string> = []
  const script = (s: Script) => gw.script(s)
  const runStatus = async (id: string) =>
    (await (await fetch(`${gw.baseUrl}/v1/runs/${id}`, { headers: { authorization: `Bearer ${gw.apiKey}` } })).json()) as Record<string, unknown>
  const waitRun = async (id: string, not: string, ms = 60_000) => {
    const end = Date.now() + ms
    let s: Record<string, unknown> = {}
    while (Date.now() < end) {
      s = await runStatus(id)
      if (s["status"] !== not) return s
      await sleep(100)
    }
    return s
  }
  const waitHeld = async (hold: string) => {
    for (let i = 0; i < 200 && !gw.journal().some((e) => e.hold === hold && e.outcome === "held"); i++) await sleep(50)
  }

  progress("probe: health, auth, routing")
  await rec.send("health, no key", "GET", "/health", { auth: "none" })
  await rec.send("v1/health, no key", "GET", "/v1/health", { auth: "none" })
  await rec.send("health/detailed", "GET", "/health/detailed")
  await rec.send("models, no key", "GET", "/v1/models", { auth: "none" })
  await rec.send("models, wrong key", "GET", "/v1/models", { auth: "wrong" })
  await rec.send("models", "GET", "/v1/models")
  await rec.send("capabilities", "GET", "/v1/capabilities")
  await rec.send("unknown route", "GET", "/v1/nope")
  await rec.send("wrong method", "DELETE", "/v1/models")
  await rec.send("runs, no key, bad JSON", "POST", "/v1/runs", { auth: "none", rawBody: "{not json" })
  await rec.send("runs, bad JSON", "POST", "/v1/runs", { rawBody: "{not json" })
  await rec.send("runs, missing input", "POST", "/v1/runs", { body: { instructions: "x" } })
  await rec.send("run not found", "GET", "/v1/runs/run_00000000000000000000000000000000")
  await rec.send("stop unknown run", "POST", "/v1/runs/run_00000000000000000000000000000000/stop")
  await rec.send("chat, missing messages", "POST", "/v1/chat/completions", { body: { model: "hermes-agent" } })

  progress("probe: chat completions")
  script({ turns: [{ replies: [{ text: "Hello there", chunks: ["Hel", "lo there"], usage: { prompt_tokens: 12, completion_tokens: 3 } }] }] })
  await rec.send("chat completion (scripted)", "POST", "/v1/chat/completions", {
    body: { model: "hermes-agent", messages: [{ role: "user", content: "probe chat" }] }
  })
  script({ turns: [{ replies: [{ text: "Streamed hello", chunks: ["Stream", "ed ", "hello"], usage: { prompt_tokens: 5, completion_tokens: 3 } }] }] })
  await rec.send("chat completion, stream (scripted)", "POST", "/v1/chat/completions", {
    body: { model: "hermes-agent", stream: true, messages: [{ role: "user", content: "probe stream" }] }
  })

  progress("probe: a held run")
  script({ turns: [{ replies: [{ hold: "probe-h1", text: "late answer", usage: { prompt_tokens: 7, completion_tokens: 2 } }] }] })
  const j0 = gw.journal().length
  const started = await rec.send("run start (held reply)", "POST", "/v1/runs", { body: { input: "probe run" } })
  const runId = (JSON.parse(started.responseBody) as { run_id: string }).run_id
  await waitHeld("probe-h1")
  await rec.send("run while the model reply is held", "GET", `/v1/runs/${runId}`)
  const events = rec.send("run events (SSE, subscribed while held)", "GET", `/v1/runs/${runId}/events`)
  await sleep(300)
  gw.release("probe-h1")
  await events
  await waitRun(runId, "running")
  await rec.send("run after release", "GET", `/v1/runs/${runId}`, { note: `model calls for the whole run: ${summarizeCalls(gw.journal().slice(j0))}` })
  await rec.send("events after completion", "GET", `/v1/runs/${runId}/events`)

  progress("probe: stop a held run")
  script({ turns: [{ replies: [{ hold: "probe-h2", text: "never shown" }] }] })
  const s2 = await rec.send("run start (to be stopped)", "POST", "/v1/runs", { body: { input: "probe stop" } })
  const run2 = (JSON.parse(s2.responseBody) as { run_id: string }).run_id
  await waitHeld("probe-h2")
  await rec.send("stop while held", "POST", `/v1/runs/${run2}/stop`)
  await rec.send("run right after stop", "GET", `/v1/runs/${run2}`)
  gw.release("probe-h2")
  const final2 = await waitRun(run2, "stopping", 30_000)
  await rec.send("stopped run, settled", "GET", `/v1/runs/${run2}`, { note: `settled status ${String(final2["status"])}` })

  progress("probe: model errors (takes a while: Hermes backs off between retries)")
  for (const status of [400, 401, 404, 429, 500, 503]) {
    script({ turns: [{ replies: [{ error: { status, message: `synthetic ${status}` } }] }] })
    const ex = await rec.send(`chat completion, model answers ${status}`, "POST", "/v1/chat/completions", {
      body: { model: "hermes-agent", messages: [{ role: "user", content: `probe model error ${status}` }] }
    })
    findings.push(`model error ${status}: ${ex.modelCalls ?? ""}; gateway answered ${ex.status} after ${ex.ms} ms`)
  }
  script({ turns: [{ replies: [{ error: { status: 400, message: "synthetic run failure" } }] }] })
  const s3 = await rec.send("run start (model answers 400)", "POST", "/v1/runs", { body: { input: "probe run error" } })
  const run3 = (JSON.parse(s3.responseBody) as { run_id: string }).run_id
  await waitRun(run3, "running")
  await rec.send("run failed by a model error", "GET", `/v1/runs/${run3}`)

  progress("probe: responses and idempotency")
  script({ turns: [{ replies: [{ text: "a stored response" }] }] })
  const resp = await rec.send("responses (scripted)", "POST", "/v1/responses", { body: { model: "hermes-agent", input: "probe responses" } })
  const respId = (JSON.parse(resp.responseBody) as { id?: string }).id
  if (respId) await rec.send("get stored response", "GET", `/v1/responses/${respId}`)
  script({ turns: [{ replies: [{ text: "keyed one" }] }, { replies: [{ text: "keyed two" }] }] })
  const k1 = await rec.send("run with Idempotency-Key (1st)", "POST", "/v1/runs", { body: { input: "keyed" }, headers: { "Idempotency-Key": "probe-k1" } })
  const k2 = await rec.send("run with same Idempotency-Key (2nd)", "POST", "/v1/runs", { body: { input: "keyed" }, headers: { "Idempotency-Key": "probe-k1" } })
  const id1 = (JSON.parse(k1.responseBody) as { run_id: string }).run_id
  const id2 = (JSON.parse(k2.responseBody) as { run_id: string }).run_id
  findings.push(`Idempotency-Key on POST /v1/runs: ${id1 === id2 ? "same run_id returned (deduplicated)" : "a second, different run_id (no deduplication)"}`)
  await waitRun(id1, "running")
  await waitRun(id2, "running")
  return { exchanges: rec.exchanges, findings }
}
