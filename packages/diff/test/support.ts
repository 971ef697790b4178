/** Builders for ScenarioRuns, exchanges and live drivers in unit tests. */
import { Effect } from "effect"
import type { Exchange } from "../src/exchange/Exchange.js"
import type { ScenarioRun, StepRecord } from "../src/runner/ScenarioRun.js"
import type { LiveDriver } from "../src/target/LiveDriver.js"

/** A LiveDriver whose every control succeeds and does nothing, and whose fetch fails unless given. */
export const stubDriver = (overrides: Partial<LiveDriver> = {}): LiveDriver => ({
  fetch: () => Effect.fail(new Error("unused")),
  apiKey: "k",
  hiddenHeaders: () => ({}),
  script: () => Effect.void,
  release: () => Effect.void,
  isHeld: () => Effect.succeed(false),
  clock: () => Effect.void,
  restart: () => Effect.void,
  reset: Effect.void,
  drain: () => Effect.void,
  modelCalls: Effect.succeed([]),
  begin: Effect.void,
  end: () => Effect.void,
  pollIntervalMs: 1,
  sseDeadlineMs: 1000,
  ...overrides
})

export const jsonExchange = (method: string, path: string, status: number, body: unknown, headers: Array<[string, string]> = []): Exchange => ({
  request: { method, path, headers: {}, auth: "key" },
  response: { status, headers: [["content-type", "application/json; charset=utf-8"], ...headers], body: { kind: "json", text: JSON.stringify(body) } }
})

export const rawJsonExchange = (method: string, path: string, status: number, text: string): Exchange => ({
  request: { method, path, headers: {}, auth: "key" },
  response: { status, headers: [["content-type", "application/json; charset=utf-8"]], body: { kind: "json", text } }
})

export const sseExchange = (path: string, text: string): Exchange => ({
  request: { method: "GET", path, headers: {}, auth: "key" },
  response: { status: 200, headers: [["content-type", "text/event-stream"]], body: { kind: "sse", text, complete: true, stoppedBy: "end" } }
})

export const runOf = (...steps: Array<Exchange | Omit<StepRecord, "index">>): ScenarioRun => ({
  scenario: "t",
  target: "test",
  pin: "0.19.0",
  durationMs: 1,
  steps: steps.map((s, index) => ("request" in s ? { index, kind: "request" as const, exchanges: [s] } : { ...s, index }))
})

/** Whether nothing answers at `baseUrl` any more (a gateway the harness should have stopped). */
export const refused = async (baseUrl: string): Promise<boolean> => {
  try {
    await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(3000) })
    return false
  } catch {
    return true
  }
}
