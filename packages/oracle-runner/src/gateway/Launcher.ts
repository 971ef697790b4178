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
