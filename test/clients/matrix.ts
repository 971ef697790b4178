/**
 * The client compatibility matrix: real client libraries against a Hermes API server (the emulator
 * or the real gateway). Every case scripts one model reply with its own text, calls the server the
 * way the library's users do, and records whether the library handed back exactly that text.
 * Clients: the official openai SDK for npm and for Python, and the Vercel AI SDK (ai + @ai-sdk/openai).
 */
import { createOpenAI } from "@ai-sdk/openai"
import type { Script } from "@hermetic/script"
import { generateText, streamText } from "ai"
import { execFile } from "node:child_process"
import OpenAI from "openai"

export interface ClientTarget {
  /** The server's base URL (no /v1). */
  readonly baseUrl: string
  readonly apiKey: string
  /** Appends a Script to what the model says next (the emulator's or the fake model's control plane). */
  readonly script: (script: Script) => Promise<void>
}

export interface MatrixRow {
  readonly client: "openai-node" | "openai-python" | "ai-sdk"
  readonly case: string
  readonly outcome: "ok" | "fails"
  /** What came back, or the error the library raised (first line, ports and ids masked). */
  readonly detail: string
  /** What the server sent that explains the outcome (e.g. the stream's event types). */
  readonly note?: string
}

const MODEL = "hermes-agent"

/** Error text without what differs between runs: ports, ids. */
export const maskDetail = (text: string): string =>
  text.split("\n")[0]!.slice(0, 200)
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT")
    .replace(/\b(resp|run|msg|chatcmpl|call)_[A-Za-z0-9]+/g, "$1_ID")

const oneTurn = (text: string): Script => ({ turns: [{ replies: [{ text, chunks: [text.slice(0, 4), text.slice(4)] }] }] })

const check = async (
  client: MatrixRow["client"],
  name: string,
  expected: string,
  body: () => Promise<string>
): Promise<MatrixRow> => {
  try {
    const got = await body()
    return { client, case: name, outcome: got === expected ? "ok" : "fails", detail: got === expected ? got : `got ${JSON.stringify(got).slice(0, 160)}` }
  } catch (e) {
    const err = e as Error
    return { client, case: name, outcome: "fails", detail: maskDetail(`${err.name}: ${err.message}${schemaIssues(err)}`) }
  }
}

/** A response the client's schema rejected (the AI SDK validates with zod): which fields, and why. */
const schemaIssues = (err: unknown): string => {
  for (let cause = (err as { cause?: unknown }).cause; cause !== undefined && cause !== null; cause = (cause as { cause?: unknown }).cause) {
    const issues = (cause as { issues?: ReadonlyArray<{ path: ReadonlyArray<unknown>; message: string }> }).issues
    if (Array.isArray(issues)) return ` (${issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")})`
  }
  return ""
}

const openaiNode = async (t: ClientTarget): Promise<Array<MatrixRow>> => {
  const client = new OpenAI({ baseURL: `${t.baseUrl}/v1`, apiKey: t.apiKey, maxRetries: 0, timeout: 30_000 })
  const input = [{ role: "user" as const, content: "hi" }]
  const rows: Array<MatrixRow> = []
  const run = async (name: string, text: string, body: () => Promise<string>) => {
    await t.script(oneTurn(text))
    rows.push(await check("openai-node", name, text, body))
  }
  await run("chat plain", "chat plain reply", async () => (await client.chat.completions.create({ model: MODEL, messages: input })).choices[0]?.message.content ?? "")
  await run("chat streamed", "chat streamed reply", async () => {
    let text = ""
    for await (const chunk of await client.chat.completions.create({ model: MODEL, messages: input, stream: true })) text += chunk.choices[0]?.delta.content ?? ""
    return text
  })
  await run("responses plain", "responses plain reply", async () => (await client.responses.create({ model: MODEL, input: "hi" })).output_text)
  const eventTypes = new Set<string>()
  await run("responses streamed (events)", "responses streamed reply", async () => {
    let text = ""
    for await (const event of await client.responses.create({ model: MODEL, input: "hi", stream: true })) {
      eventTypes.add(event.type)
      if (event.type === "response.output_text.delta") text += event.delta
    }
    return text
  })
  // the helpers build their snapshot from response.content_part.* events: say which events came
  const eventsNote = `event types sent: ${[...eventTypes].join(", ")}`
  rows[rows.length - 1] = { ...rows[rows.length - 1]!, note: eventsNote }
  await run("responses streamed (stream helper)", "responses helper reply", async () => {
    const stream = client.responses.stream({ model: MODEL, input: "hi" })
    return (await stream.finalResponse()).output_text
  })
  rows[rows.length - 1] = { ...rows[rows.length - 1]!, note: eventsNote }
  await t.script(oneTurn("first of the chain"))
  await run("responses chained", "second of the chain", async () => {
    const first = await client.responses.create({ model: MODEL, input: "one", store: true })
    return (await client.responses.create({ model: MODEL, input: "two", previous_response_id: first.id })).output_text
  })
  rows.push(await check("openai-node", "models list", MODEL, async () => (await client.models.list()).data.map((m) => m.id).join(",")))
  return rows
}

const aiSdk = async (t: ClientTarget): Promise<Array<MatrixRow>> => {
  const provider = createOpenAI({ baseURL: `${t.baseUrl}/v1`, apiKey: t.apiKey })
  const rows: Array<MatrixRow> = []
  const run = async (name: string, text: string, body: () => Promise<string>) => {
    await t.script(oneTurn(text))
    rows.push(await check("ai-sdk", name, text, body))
  }
  const streamed = async (model: Parameters<typeof streamText>[0]["model"]) => {
    let text = ""
    const result = streamText({ model, prompt: "hi", maxRetries: 0 })
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") text += part.text
      if (part.type === "error") throw part.error instanceof Error ? part.error : new Error(String(part.error))
    }
    return text
  }
  await run("chat generate", "ai chat generate reply", async () => (await generateText({ model: provider.chat(MODEL), prompt: "hi", maxRetries: 0 })).text)
  await run("chat stream", "ai chat stream reply", () => streamed(provider.chat(MODEL)))
  await run("responses generate", "ai responses generate reply", async () => (await generateText({ model: provider.responses(MODEL), prompt: "hi", maxRetries: 0 })).text)
  await run("responses stream", "ai responses stream reply", () => streamed(provider.responses(MODEL)))
  return rows
}

/** The Python half: test/clients/openai_matrix.py in a venv with the openai SDK; it scripts through `adminUrl`. */
const openaiPython = (python: string, t: ClientTarget, adminUrl: string): Promise<Array<MatrixRow>> =>
  new Promise((resolve, reject) => {
    execFile(
      python,
      [new URL("./openai_matrix.py", import.meta.url).pathname],
      { env: { ...process.env, BASE_URL: t.baseUrl, API_KEY: t.apiKey, ADMIN_URL: adminUrl }, timeout: 120_000, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error !== null) return reject(new Error(`openai_matrix.py failed: ${stderr || error.message}`))
        const rows = JSON.parse(stdout) as Array<MatrixRow>
        resolve(rows.map((r) => ({ ...r, detail: maskDetail(r.detail) })))
      }
    )
  })

export const runClientMatrix = async (t: ClientTarget, python?: { readonly python: string; readonly adminUrl: string }): Promise<Array<MatrixRow>> => [
  ...(await openaiNode(t)),
  ...(python === undefined ? [] : await openaiPython(python.python, t, python.adminUrl)),
  ...(await aiSdk(t))
]
