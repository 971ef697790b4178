/**
 * What a test does to a running emulator besides calling its API: script the model, release holds,
 * reset. Shared by the Promise fixture (emulatorFixture.ts) and the Effect layer (EmulatorServer.ts).
 */
import { ADMIN_PREFIX, holdReleasePath, NAMESPACE_HEADER, type Script } from "@hermetic/script"

export interface ControlClient {
  /** Base URL of the emulator (`http://127.0.0.1:<port>`); an OpenAI SDK wants `${url}/v1`. */
  readonly url: string
  /** The bearer key the emulator requires; give it to your client. */
  readonly apiKey: string
  /** Headers for your own requests: the bearer key and the namespace. */
  readonly headers: Readonly<Record<string, string>>
  /** Appends turns to what "the model" will say. */
  readonly script: (script: Script) => Promise<void>
  /** Releases a held reply. */
  readonly release: (hold: string) => Promise<void>
  /** Clears the namespace: runs, sessions, responses, the script queue. */
  readonly reset: () => Promise<void>
}

export interface ControlOptions {
  readonly namespace?: string
  /** The admin key, when the emulator requires one. */
  readonly adminKey?: string
}

export const controlClient = (url: string, apiKey: string, options: ControlOptions = {}): ControlClient => {
  const headers: Record<string, string> = {
    authorization: `Bearer ${apiKey}`,
    [NAMESPACE_HEADER]: options.namespace ?? "default"
  }
  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: "POST",
      headers: {
        ...headers,
        "content-type": "application/json",
        ...(options.adminKey !== undefined ? { "x-hermetic-admin-key": options.adminKey } : {})
      },
      body: JSON.stringify(body)
    })
    if (!res.ok) throw new Error(`hermetic: POST ${path} answered ${res.status}: ${await res.text()}`)
  }
  return {
    url,
    apiKey,
    headers,
    script: (script) => admin(`${ADMIN_PREFIX}/script`, script),
    release: (hold) => admin(holdReleasePath(hold), {}),
    reset: () => admin(`${ADMIN_PREFIX}/reset`, {})
  }
}

/** A key long enough for Hermes' own check (16+ characters), for tests that do not care which. */
export const TEST_API_KEY = "hermetic-test-key-0123456789"
