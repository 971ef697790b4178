/** Test helpers: an emulator on a loopback port, and small request helpers. */
import * as net from "node:net"
import { afterEach } from "vitest"
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../src/index.js"
import type { Script } from "@hermetic/script"

export const API_KEY = "test-key-0123456789abcdef"
/** What the control plane requires: JSON, and the API key once one is set. */
export const ADMIN_HEADERS: Readonly<Record<string, string>> = { "content-type": "application/json", "x-hermetic-admin-key": API_KEY }

export interface Client {
  readonly emu: RunningEmulator
  readonly request: (method: string, path: string, init?: { body?: unknown; headers?: Record<string, string>; auth?: "none" | "wrong" }) => Promise<Response>
  readonly json: <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<{ status: number; body: T; headers: Headers }>
  readonly script: (script: Script) => Promise<void>
  readonly release: (hold: string) => Promise<void>
  readonly admin: (path: string, body?: unknown) => Promise<Response>
  readonly waitForStatus: (runId: string, statuses: ReadonlyArray<string>) => Promise<Record<string, unknown>>
}

export const startClient = async (options: EmulatorOptions = {}, namespace = "default"): Promise<Client> => {
  const emu = await startEmulator({ apiKey: API_KEY, ...options })
  const request: Client["request"] = (method, path, init = {}) => {
    const headers: Record<string, string> = { "x-hermetic-namespace": namespace, ...init.headers }
    if (init.auth !== "none") headers["authorization"] = `Bearer ${init.auth === "wrong" ? "wrong-key" : API_KEY}`
    const body = init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body)
    return fetch(`${emu.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
  }
  const json: Client["json"] = async (method, path, body) => {
    const res = await request(method, path, body === undefined ? {} : { body })
    return { status: res.status, headers: res.headers, body: (await res.json()) as never }
  }
  const admin: Client["admin"] = (path, body) =>
    fetch(`${emu.url}/__admin${path}`, {
      method: "POST",
      headers: { "x-hermetic-namespace": namespace, ...ADMIN_HEADERS },
      body: JSON.stringify(body ?? {})
    })
  return {
    emu,
    request,
    json,
    admin,
    script: async (script) => {
      const res = await admin("/script", script)
      if (res.status !== 200) throw new Error(`script rejected: ${await res.text()}`)
    },
    release: async (hold) => void (await admin(`/holds/${hold}/release`)),
    waitForStatus: async (runId, statuses) => {
      const deadline = Date.now() + 5000
      for (;;) {
        const r = await json("GET", `/v1/runs/${runId}`)
        if (statuses.includes(String(r.body["status"]))) return r.body
        if (Date.now() > deadline) throw new Error(`run ${runId} stayed ${String(r.body["status"])}`)
        await new Promise((f) => setTimeout(f, 10))
      }
    }
  }
}

export const readSse = async (res: Response): Promise<Array<string>> => {
  const text = await res.text()
  return text.split("\n\n").filter((f) => f !== "")
}

export const dataEvents = (frames: ReadonlyArray<string>): Array<Record<string, unknown>> =>
  frames.filter((f) => f.startsWith("data: ")).map((f) => JSON.parse(f.slice(6)) as Record<string, unknown>)

/** `open(...)` starts a client for the current test; every client opened is closed after each test. */
export const openClients = () => {
  const clients: Array<Client> = []
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.emu.close()))
  })
  return async (...args: Parameters<typeof startClient>): Promise<Client> => {
    const c = await startClient(...args)
    clients.push(c)
    return c
  }
}

/** Writes raw request bytes (latin-1) to a loopback port, half-closes, and answers every byte the server sent back. */
export const rawExchange = (port: number, request: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(Buffer.from(request, "latin1")))
    let text = ""
    socket.on("data", (d) => (text += d.toString("latin1")))
    socket.on("close", () => resolve(text))
    socket.on("error", reject)
  })
