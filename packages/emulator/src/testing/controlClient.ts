/**
 * What a test does to a running emulator besides calling its API: script the model, release holds,
 * move the clock, arm faults, save and load snapshots, read the journal, reset. Shared by the
 * Promise fixture (emulatorFixture.ts), the Effect layer (EmulatorServer.ts) and the container
 * module (@hermetic/testcontainers), over HTTP only: it also drives an emulator in a container or
 * on another port (`@hermetic/emulator/control-client` loads nothing else of the emulator).
 * Request and answer shapes are @hermetic/script's ControlPlane and the emulator's own schemas.
 */
import {
  ADMIN_PREFIX,
  type ClockCommand,
  type ClockMoved,
  holdReleasePath,
  type HoldReleased,
  NAMESPACE_HEADER,
  type ResetDone,
  type Restarted,
  type Script,
  type ScriptAppended
} from "@hermetic/script"
import type { FaultRule } from "../services/Faults.js"
import type { SnapshotFile } from "../namespace/SnapshotFile.js"
import { type JournalClient, journalOf } from "./journalPromise.js"

export type { ClockCommand, ClockMoved, FaultRule, HoldReleased, JournalClient, ScriptAppended, SnapshotFile }

export interface ControlClient {
  /** Base URL of the emulator (`http://127.0.0.1:<port>`); an OpenAI SDK wants `${url}/v1`. */
  readonly url: string
  /** The bearer key the emulator requires; give it to your client. */
  readonly apiKey: string
  /** The namespace this client drives (header `x-hermetic-namespace`). */
  readonly namespace: string
  /** Headers for your own requests: the bearer key and the namespace. */
  readonly headers: Readonly<Record<string, string>>
  /** Appends turns to what "the model" will say. */
  readonly script: (script: Script) => Promise<ScriptAppended>
  /** Releases a held reply. */
  readonly release: (hold: string) => Promise<HoldReleased>
  /** Sets, advances (seconds) or freezes the namespace's clock. */
  readonly clock: (command: ClockCommand) => Promise<ClockMoved>
  /** Arms a fault rule (status, latency, dropped or cut streams) for matching requests. */
  readonly armFault: (rule: FaultRule) => Promise<void>
  readonly clearFaults: () => Promise<void>
  /** The namespace's durable state as one snapshot (what `serve --snapshot FILE` takes). */
  readonly saveSnapshot: () => Promise<SnapshotFile>
  /** Replaces the namespace's rows with a snapshot's, as a restart would; rows loaded per table. */
  readonly loadSnapshot: (snapshot: SnapshotFile) => Promise<Readonly<Record<string, number>>>
  /** The namespace's journal: query it, expect requests, read model calls. */
  readonly journal: JournalClient
  /** The gateway restarts: memory goes, storage stays. */
  readonly restart: () => Promise<Restarted>
  /** Clears the namespace: runs, sessions, responses, the script queue, clock, faults. */
  readonly reset: () => Promise<ResetDone>
}

export interface ControlOptions {
  readonly namespace?: string
  /** The admin key, when the emulator requires one. */
  readonly adminKey?: string
}

/** A control-plane request the emulator refused: its status and its message. */
export class ControlPlaneError extends Error {
  constructor(readonly path: string, readonly status: number, readonly body: string) {
    super(`hermetic: POST ${path} answered ${status}: ${body}`)
    this.name = "ControlPlaneError"
  }
}

export const controlClient = (url: string, apiKey: string, options: ControlOptions = {}): ControlClient => {
  const namespace = options.namespace ?? "default"
  const headers: Record<string, string> = {
    ...(apiKey !== "" ? { authorization: `Bearer ${apiKey}` } : {}),
    [NAMESPACE_HEADER]: namespace
  }
  const admin = async <A>(method: "POST" | "DELETE", path: string, body?: unknown): Promise<A> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...headers,
        "content-type": "application/json",
        ...(options.adminKey !== undefined ? { "x-hermetic-admin-key": options.adminKey } : {})
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {})
    })
    const text = await res.text()
    if (!res.ok) throw new ControlPlaneError(path, res.status, text)
    return JSON.parse(text) as A
  }
  const post = <A>(path: string, body: unknown) => admin<A>("POST", `${ADMIN_PREFIX}${path}`, body)
  const adminKey = options.adminKey ?? (apiKey !== "" ? apiKey : undefined)
  return {
    url,
    apiKey,
    namespace,
    headers,
    script: (script) => post<ScriptAppended>("/script", script),
    release: (hold) => admin<HoldReleased>("POST", holdReleasePath(hold), {}),
    clock: (command) => post<ClockMoved>("/clock", command),
    armFault: async (rule) => void (await post("/faults", rule)),
    clearFaults: async () => void (await admin("DELETE", `${ADMIN_PREFIX}/faults`)),
    saveSnapshot: async () => (await post<{ snapshot: SnapshotFile }>("/snapshot", { action: "save" })).snapshot,
    loadSnapshot: async (snapshot) => (await post<{ loaded: Record<string, number> }>("/snapshot", { action: "load", snapshot })).loaded,
    journal: journalOf(url, { namespace, ...(adminKey !== undefined ? { adminKey } : {}) }),
    restart: () => post<Restarted>("/restart", {}),
    reset: () => post<ResetDone>("/reset", {})
  }
}

/** A key long enough for Hermes' own check (16+ characters), for tests that do not care which. */
export const TEST_API_KEY = "hermetic-test-key-0123456789"
