/**
 * A running hermes-emulator container: its base URL, its key, and the emulator's typed control
 * client (@hermetic/emulator/control-client: script, holds, clock, faults, snapshots, journal,
 * reset) bound to it.
 */
import { type ControlClient, controlClient, type ControlOptions } from "@hermetic/emulator/control-client"
import { AbstractStartedContainer, type StartedTestContainer } from "testcontainers"

export class StartedHermesEmulatorContainer extends AbstractStartedContainer {
  constructor(
    started: StartedTestContainer,
    private readonly apiKey: string,
    private readonly hostPort: number | undefined
  ) {
    super(started)
  }

  /** `http://host:port` of the emulator; an OpenAI SDK wants `${getBaseUrl()}/v1`. */
  getBaseUrl(): string {
    return this.hostPort !== undefined ? `http://127.0.0.1:${this.hostPort}` : `http://${this.getHost()}:${this.getMappedPort(8642)}`
  }

  /** The bearer key the emulator requires ("" when it runs without one). */
  getApiKey(): string {
    return this.apiKey
  }

  /** The control plane of one namespace (default: `default`). */
  control(options: ControlOptions = {}): ControlClient {
    return controlClient(this.getBaseUrl(), this.apiKey, options)
  }
}
