/**
 * A LiveDriver for the emulator, over any fetch (in process or over a socket). Every scenario gets
 * a namespace of its own, so scenarios never see each other's runs, ledger, script or clock; the
 * namespace is reset when the scenario ends, which also ends its live runs.
 */
import type { Script } from "@hermetic/script"
import type { ClockCommand } from "../scenario/Scenario.js"
import type { LiveDriver } from "./LiveDriver.js"

export interface EmulatorDriverOptions {
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>
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

export const emulatorDriver = (options: EmulatorDriverOptions): LiveDriver => {
  const prefix = options.namespacePrefix ?? `diff${++driverCount}`
  let scenarioCount = 0
  let namespace = `${prefix}-0`
  const nsHeader = () => ({ "x-hermetic-namespace": namespace })
  // the control plane wants the API key once one is set
  const adminKey: Record<string, string> = options.apiKey === "" ? {} : { "x-hermetic-admin-key": options.apiKey }
  const admin = async (path: string, body: unknown = {}): Promise<unknown> => {
    const res = await options.fetch(`${options.baseUrl}/__admin${path}`, {
      method: "POST",
      headers: { ...nsHeader(), ...adminKey, "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`admin ${path} answered ${res.status}: ${text}`)
    return text === "" ? null : JSON.parse(text)
  }
  return {
    fetch: (path, init) => options.fetch(`${options.baseUrl}${path}`, init),
    apiKey: options.apiKey,
    hiddenHeaders: nsHeader,
    script: async (script: Script) => void (await admin("/script", script)),
    release: async (hold) => void (await admin(`/holds/${encodeURIComponent(hold)}/release`)),
    isHeld: async (hold) => {
      const res = await options.fetch(`${options.baseUrl}/__admin/holds`, { method: "GET", headers: { ...nsHeader(), ...adminKey } })
      const body = (await res.json()) as { waiting?: ReadonlyArray<string> }
      if (res.status !== 200 || body.waiting === undefined) throw new Error(`admin /holds answered ${res.status}`)
      return body.waiting.includes(hold)
    },
    clock: async (command: ClockCommand) => void (await admin("/clock", command)),
    restart: async () => void (await admin("/restart")),
    reset: async () => {
      await admin("/reset")
      if (options.pinnedClock !== undefined) await admin("/clock", { set: options.pinnedClock }).then(() => admin("/clock", { freeze: true }))
    },
    drain: async (on) => void (await admin("/drain", { draining: on })),
    begin: async () => {
      namespace = `${prefix}-${++scenarioCount}`
      if (options.pinnedClock !== undefined) {
        await admin("/clock", { freeze: true })
        await admin("/clock", { set: options.pinnedClock })
      }
    },
    end: async (holds) => {
      for (const hold of holds) await admin(`/holds/${encodeURIComponent(hold)}/release`)
      await admin("/reset")
    },
    pollIntervalMs: options.pollIntervalMs,
    sseDeadlineMs: options.sseDeadlineMs
  }
}
