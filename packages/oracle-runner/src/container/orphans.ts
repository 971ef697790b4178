/**
 * Gateway containers whose runner is gone. A runner that is interrupted stops its containers when
 * its scope closes; one killed outright (SIGKILL, a CI timeout) cannot, and a container outlives
 * its client. The process launcher has the kernel end its gateway with the runner (PDEATHSIG); for
 * containers, each carries its runner's pid and boot id as labels, and the next launch on the
 * machine removes those whose runner no longer runs. (Ryuk, testcontainers' own reaper, is a
 * pulled image; no registry is reachable here.)
 */
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import { runCommand } from "../exec/Command.js"

export const ROLE_LABEL = "hermetic.role"
export const OWNER_PID_LABEL = "hermetic.owner-pid"
export const OWNER_BOOT_LABEL = "hermetic.owner-boot"

const bootId = (): string => {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim()
  } catch {
    return "unknown"
  }
}

/** The labels that tie a container to this process. */
export const ownerLabels = (): Record<string, string> => ({ [OWNER_PID_LABEL]: String(process.pid), [OWNER_BOOT_LABEL]: bootId() })

const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    // EPERM: it runs, as someone else
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Is the runner that started this container gone? Only decided for runners of this boot of this machine. */
export const ownerGone = (labels: { readonly pid: string; readonly boot: string }, boot = bootId(), isRunning = running): boolean => {
  const pid = Number(labels.pid)
  return labels.boot === boot && Number.isInteger(pid) && pid > 0 && !isRunning(pid)
}

/** Removes gateway containers whose runner is gone; returns their ids. */
export const removeOrphans: Effect.Effect<Array<string>> = Effect.gen(function*() {
  const listed = yield* runCommand("docker", [
    "ps", "-a", "--filter", `label=${ROLE_LABEL}=gateway`, "--format", `{{.ID}} {{.Label "${OWNER_PID_LABEL}"}} {{.Label "${OWNER_BOOT_LABEL}"}}`
  ])
  if (listed.exitCode !== 0) return []
  const boot = bootId()
  const orphans = listed.stdout
    .split("\n")
    .map((line) => line.trim().split(" "))
    .filter(([id, pid, b]) => id !== undefined && id !== "" && ownerGone({ pid: pid ?? "", boot: b ?? "" }, boot))
    .map(([id]) => id as string)
  if (orphans.length > 0) yield* runCommand("docker", ["rm", "-f", ...orphans])
  return orphans
})
