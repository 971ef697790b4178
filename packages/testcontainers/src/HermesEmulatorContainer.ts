/**
 * The hermes-emulator image (image/ in the repository) as a testcontainers module:
 *
 *   const emu = await new HermesEmulatorContainer().withApiKey(key).withHermesVersion("0.19.0").start()
 *   const openai = new OpenAI({ baseURL: `${emu.getBaseUrl()}/v1`, apiKey: key })
 *   await emu.control().script({ turns: [{ replies: [{ text: "Hi" }] }] })
 *
 * It waits on `/health` through the image's own health check (run every 250 ms here instead of
 * the image's 5 s), so the same wait works on a bridge network and on the host's.
 */
import { createServer } from "node:net"
import { GenericContainer, Wait } from "testcontainers"
import { StartedHermesEmulatorContainer } from "./StartedHermesEmulatorContainer.js"

/** The image's name as image/build.sh tags it; a published one is e.g. `ghcr.io/<owner>/hermes-emulator:0.1.0`. */
export const DEFAULT_IMAGE = "hermetic/emulator:latest"
/** The port the image listens on (its `API_SERVER_PORT`). */
export const EMULATOR_PORT = 8642

/** A free loopback port, for host networking (the kernel picks it; it is free again once closed). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

export class HermesEmulatorContainer extends GenericContainer {
  private apiKey = ""
  private hostNetwork: { port: number | undefined } | undefined
  private readonly serveArgs: Array<string> = ["serve", "--data-dir", "/data"]

  constructor(readonly image: string = DEFAULT_IMAGE) {
    super(image)
    this.withHealthCheck({ test: ["CMD", "node", "/opt/hermetic/healthcheck.cjs"], interval: 250, timeout: 2000, retries: 40, startPeriod: 0 })
      .withWaitStrategy(Wait.forHealthCheck())
      .withStartupTimeout(30_000)
  }

  /** `API_SERVER_KEY`: the bearer key of the API and, unless an admin key is set, of the control plane. */
  withApiKey(key: string): this {
    this.apiKey = key
    return this.withEnvironment({ API_SERVER_KEY: key })
  }

  /** The Hermes release to emulate (`HERMETIC_HERMES_VERSION`): "0.19.0" or "0.21.0". */
  withHermesVersion(version: string): this {
    return this.withEnvironment({ HERMETIC_HERMES_VERSION: version })
  }

  /** A separate key for the control plane (`HERMETIC_ADMIN_KEY`). */
  withAdminKey(key: string): this {
    return this.withEnvironment({ HERMETIC_ADMIN_KEY: key })
  }

  /** The journal keeps request bodies and model calls (redacted, bounded). */
  withJournalBodies(): this {
    this.serveArgs.push("--journal-bodies")
    return this
  }

  /** No key at all, on purpose: only for a local test (`HERMETIC_ALLOW_NO_KEY=local-test`). */
  withoutApiKeyForLocalTest(): this {
    return this.withEnvironment({ HERMETIC_ALLOW_NO_KEY: "local-test" })
  }

  /**
   * The host's network instead of a published port: the emulator binds 127.0.0.1:`port` (a free
   * one when not given). For engines without a bridge network, such as a rootless or
   * `--bridge=none` daemon.
   */
  withHostNetwork(port?: number): this {
    this.hostNetwork = { port }
    return this
  }

  override async start(): Promise<StartedHermesEmulatorContainer> {
    this.withCommand(this.serveArgs)
    let hostPort: number | undefined
    if (this.hostNetwork !== undefined) {
      hostPort = this.hostNetwork.port ?? (await freePort())
      this.withNetworkMode("host").withEnvironment({ API_SERVER_HOST: "127.0.0.1", API_SERVER_PORT: String(hostPort) })
    } else {
      this.withExposedPorts(EMULATOR_PORT)
    }
    return new StartedHermesEmulatorContainer(await super.start(), this.apiKey, hostPort)
  }
}
