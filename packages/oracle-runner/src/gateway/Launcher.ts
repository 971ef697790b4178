import { rm } from "node:fs/promises"

/** What every launcher (process, container) gives back: a gateway that can stop, crash and restart. */
export type LaunchedGateway = {
  /** http://127.0.0.1:PORT */
  readonly baseUrl: string
  readonly apiKey: string
  readonly logFile: string
  /** The gateway's process group id on this host, when it runs as a host process. */
  processGroup(): number | null
  /** The container's id, when it runs in a container. */
  containerId(): string | null
  /** Graceful stop and start again on the same HERMES_HOME. */
  restart(): Promise<void>
  /** SIGKILL, then start again on the same HERMES_HOME. */
  crash(): Promise<void>
  /** Stop for good and remove temp dirs (unless asked to keep them). Idempotent. */
  stop(): Promise<void>
}

export type Progress = (line: string) => void

/** How one launcher drives its gateway; `launchedGateway` turns it into the common lifecycle. */
export interface GatewayControls {
  readonly baseUrl: string
  readonly home: { readonly apiKey: string; readonly logFile: string; readonly root: string }
  readonly keepTemp: boolean | undefined
  readonly processGroup: () => number | null
  readonly containerId: () => string | null
  readonly start: () => Promise<void>
  /** Hermes' planned stop, then whatever is left is removed. */
  readonly stopGracefully: () => Promise<void>
  /** SIGKILL, nothing graceful. */
  readonly kill: () => Promise<void>
}

/**
 * restart = graceful stop + start; crash = kill + start (same HERMES_HOME); stop = graceful stop
 * once, then the temp HERMES_HOME goes unless kept. The gateway is started before this returns.
 */
export const launchedGateway = async (c: GatewayControls): Promise<LaunchedGateway> => {
  let stopped = false
  await c.start()
  return {
    baseUrl: c.baseUrl,
    apiKey: c.home.apiKey,
    logFile: c.home.logFile,
    processGroup: c.processGroup,
    containerId: c.containerId,
    restart: async () => {
      await c.stopGracefully()
      await c.start()
    },
    crash: async () => {
      await c.kill()
      await c.start()
    },
    stop: async () => {
      if (stopped) return
      stopped = true
      try {
        await c.stopGracefully()
      } finally {
        if (c.keepTemp !== true) await rm(c.home.root, { recursive: true, force: true })
      }
    }
  }
}
