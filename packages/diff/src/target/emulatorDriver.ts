/**
 * A LiveDriver for the emulator, over any fetch (in process or over a socket). Every scenario gets
 * a namespace of its own, so scenarios never see each other's runs, ledger, script or clock; the
 * namespace is reset when the scenario ends, which also ends its live runs.
 */
import { ReceivedCalls, type Script } from "@hermetic/script"
import { Effect, Schema } from "effect"
import type { ClockCommand } from "../scenario/Scenario.js"
import { type Fetch, fetchEffect, type LiveDriver } from "./LiveDriver.js"

export interface EmulatorDriverOptions {
  readonly fetch: Fetch
  readonly baseUrl: string
  readonly apiKey: string
  /** Epoch seconds to freeze every scenario's clock at; running real time when absent. */
  readonly pinnedClock?: number
  readonly pollIntervalMs: number
  readonly sseDeadlineMs: number
  /** Namespace prefix (several drivers may share one emulator). */
  readonly namespacePrefix?: string
}

let driverCount = 0

const bodyText = (res: Response) => Effect.tryPromise({ try: () => res.text(), catch: (e) => (e instanceof Error ? e : new Error(String(e))) })

export const emulatorDriver = (options: EmulatorDriverOptions): LiveDriver => {
  const prefix = options.namespacePrefix ?? `diff${++driverCount}`
  let scenarioCount = 0
  let namespace = `${prefix}-0`
  const nsHeader = () => ({ "x-hermetic-namespace": namespace })
  // the control plane wants the API key once one is set
  const adminKey: Record<string, string> = options.apiKey === "" ? {} : { "x-hermetic-admin-key": options.apiKey }
  /** One control-plane call; anything but a 200 is a failure naming the answer. */
  const admin = (path: string, body: unknown = {}): Effect.Effect<void, Error> =>
    Effect.suspend(() =>
      fetchEffect(options.fetch, `${options.baseUrl}/__admin${path}`, {
        method: "POST",
        headers: { ...nsHeader(), ...adminKey, "content-type": "application/json" },
        body: JSON.stringify(body)
      })
    ).pipe(
      Effect.flatMap((res) =>
        Effect.flatMap(bodyText(res), (text) => (res.status === 200 ? Effect.void : Effect.fail(new Error(`admin ${path} answered ${res.status}: ${text}`))))
      )
    )
  /** One control-plane read; anything but a 200 is a failure naming the answer. */
  const adminGet = (path: string): Effect.Effect<unknown, Error> =>
    Effect.suspend(() => fetchEffect(options.fetch, `${options.baseUrl}/__admin${path}`, { method: "GET", headers: { ...nsHeader(), ...adminKey } })).pipe(
      Effect.flatMap((res) =>
        Effect.flatMap(bodyText(res), (text) =>
          res.status === 200
            ? Effect.try({ try: () => JSON.parse(text) as unknown, catch: () => new Error(`admin ${path} answered no JSON: ${text.slice(0, 200)}`) })
            : Effect.fail(new Error(`admin ${path} answered ${res.status}: ${text}`)))
      )
    )
  const release = (hold: string) => admin(`/holds/${encodeURIComponent(hold)}/release`)
  const pinClock = (steps: ReadonlyArray<unknown>) => (options.pinnedClock === undefined ? Effect.void : Effect.forEach(steps, (step) => admin("/clock", step), { discard: true }))
  return {
    fetch: (path, init) => fetchEffect(options.fetch, `${options.baseUrl}${path}`, init),
    apiKey: options.apiKey,
    hiddenHeaders: nsHeader,
    script: (script: Script) => admin("/script", script),
    release,
    isHeld: (hold) =>
      Effect.suspend(() => fetchEffect(options.fetch, `${options.baseUrl}/__admin/holds`, { method: "GET", headers: { ...nsHeader(), ...adminKey } })).pipe(
        Effect.flatMap((res) =>
          Effect.flatMap(bodyText(res), (text) => {
            const waiting = res.status === 200 ? (JSON.parse(text) as { waiting?: ReadonlyArray<string> }).waiting : undefined
            return waiting === undefined ? Effect.fail(new Error(`admin /holds answered ${res.status}`)) : Effect.succeed(waiting.includes(hold))
          })
        )
      ),
    clock: (command: ClockCommand) => admin("/clock", command),
    restart: () => admin("/restart"),
    drain: (on) => admin("/drain", { draining: on }),
    modelCalls: Effect.flatMap(adminGet("/model-calls"), (body) =>
      Effect.mapError(Schema.decodeUnknown(ReceivedCalls)(body), (e) => new Error(`admin /model-calls: ${e.message}`)).pipe(Effect.map((r) => r.calls))),
    reset: Effect.zipRight(admin("/reset"), pinClock([{ set: options.pinnedClock }, { freeze: true }])),
    begin: Effect.suspend(() => {
      namespace = `${prefix}-${++scenarioCount}`
      return pinClock([{ freeze: true }, { set: options.pinnedClock }])
    }),
    end: (holds) => Effect.zipRight(Effect.forEach(holds, release, { discard: true }), admin("/reset")),
    pollIntervalMs: options.pollIntervalMs,
    sseDeadlineMs: options.sseDeadlineMs
  }
}
