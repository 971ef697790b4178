/**
 * The real 0.19.0 gateway's external drain, as a scenario's `drain` step. Hermes polls for a
 * marker file, `.drain_request.json` in HERMES_HOME, once a second of event-loop time; while it is
 * there the gateway refuses new agent work (chat completions, responses, runs, job runs) with 503
 * `gateway_draining` and lets in-flight work finish, without exiting. A marker without an
 * instantiation epoch is honoured (Hermes treats only a definitely foreign epoch as stale).
 *
 * The step returns once the gateway does what was asked, judged by a probe that changes nothing:
 * POST /v1/runs with a body that is not JSON answers 503 while draining (the drain check comes
 * before the body is read) and 400 otherwise.
 */
import { rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect } from "effect"

const MARKER = ".drain_request.json"

/** What the drain needs of a gateway (the Effect and the Promise faces both have it). */
export interface Drainable {
  readonly baseUrl: string
  readonly apiKey: string
  readonly hermesHome: string
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

const probeDraining = async (gw: Drainable): Promise<boolean> => {
  const res = await fetch(`${gw.baseUrl}/v1/runs`, {
    method: "POST",
    headers: { authorization: `Bearer ${gw.apiKey}`, "content-type": "application/json", connection: "close" },
    body: "{"
  })
  await res.arrayBuffer()
  return res.status === 503
}

const drain = async (gw: Drainable, on: boolean, timeoutMs: number): Promise<void> => {
  const marker = join(gw.hermesHome, MARKER)
  if (on) await writeFile(marker, JSON.stringify({ action: "drain", principal: "hermetic", suppress_notification: true }) + "\n")
  else await rm(marker, { force: true })
  const deadline = Date.now() + timeoutMs
  while ((await probeDraining(gw)) !== on) {
    if (Date.now() > deadline) throw new Error(`the gateway did not ${on ? "start" : "stop"} draining within ${timeoutMs} ms of the marker ${on ? "appearing" : "going"}`)
    await sleep(100)
  }
}

export const externalDrain = (gw: Drainable, on: boolean, timeoutMs = 30_000): Effect.Effect<void, Error> =>
  Effect.tryPromise({ try: () => drain(gw, on, timeoutMs), catch: (e) => (e instanceof Error ? e : new Error(String(e))) })
