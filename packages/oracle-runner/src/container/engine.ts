/**
 * Is a container engine reachable? testcontainers decides (DOCKER_HOST, the default socket, ...).
 * No registry is reachable on these machines, so Ryuk (a pulled image) is off and the host is
 * pinned to localhost; set here unless the caller chose otherwise.
 */
import { existsSync } from "node:fs"

export const containerEnvDefaults = (): void => {
  process.env["TESTCONTAINERS_RYUK_DISABLED"] ??= "true"
  process.env["TESTCONTAINERS_HOST_OVERRIDE"] ??= "localhost"
  // scripts/container-engine.sh starts dockerd on this socket; use it when nothing else is set.
  if (!process.env["DOCKER_HOST"]) {
    const sock = `${process.env["HERMETIC_ENGINE_DIR"] ?? "/tmp/hermetic-engine"}/docker.sock`
    if (existsSync(sock)) process.env["DOCKER_HOST"] = `unix://${sock}`
  }
}

export type EngineProbe = { readonly ok: true; readonly info: string } | { readonly ok: false; readonly reason: string }

export const probeEngine = async (): Promise<EngineProbe> => {
  containerEnvDefaults()
  try {
    const { getContainerRuntimeClient } = await import("testcontainers")
    const client = await getContainerRuntimeClient()
    const rt = client.info.containerRuntime
    return { ok: true, info: `${rt.remoteSocketPath || rt.host} (engine ${rt.serverVersion}, ${rt.operatingSystem})` }
  } catch (e) {
    return { ok: false, reason: (e as Error).message }
  }
}
