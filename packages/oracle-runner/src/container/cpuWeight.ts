/**
 * How much CPU a gateway container may claim when the machine is busy: what the gateway would
 * claim as a host process of the runner.
 *
 * Why: with the cgroupfs driver every container sits in one `/docker` cgroup of weight 1024, and
 * that whole group competes as ONE entity against every busy task of the host. On a shared 2-core
 * machine at load 20, all gateway containers together got about a twentieth of the CPU, and a
 * container gateway's restart (seconds of Python imports) took several times the process
 * launcher's — the 0.20–0.26 against 0.88 scenarios/s of the first container campaigns. `nice`
 * did not reach them either: their processes are children of the engine, not of the runner.
 *
 * So each gateway container gets a cgroup of its own at the top of the hierarchy (`--cgroup-parent
 * /`, cgroupfs driver only) with the CFS weight of the runner's nice level: a gateway (one Python
 * interpreter, about one busy thread under the GIL) weighs what its host process would, no more.
 */
import { getPriority } from "node:os"
import { Effect } from "effect"
import { runCommand } from "../exec/Command.js"

/** The kernel's nice → CFS weight table (sched_prio_to_weight), nice -20 … 19. */
const WEIGHTS = [
  88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
  1024, 820, 655, 526, 423, 335, 272, 215, 172, 137, 110, 87, 70, 56, 45, 36, 29, 23, 18, 15
]

/** The CFS weight of a nice level (clamped to -20 … 19); `cpu.shares` takes the same numbers. */
export const weightOfNice = (nice: number): number => WEIGHTS[Math.min(19, Math.max(-20, Math.round(nice))) + 20] as number

export type CpuPlacement = { readonly cpuShares: number; readonly cgroupParent?: string }

let driver: string | undefined
const cgroupDriver: Effect.Effect<string> = Effect.suspend(() =>
  driver !== undefined
    ? Effect.succeed(driver)
    : Effect.map(runCommand("docker", ["info", "-f", "{{.CgroupDriver}}"]), (r) => (driver = r.exitCode === 0 ? r.stdout.trim() : ""))
)

/**
 * The placement for a container started now by this process (its nice level read at each start).
 * HERMETIC_CONTAINER_CPU=engine leaves the engine's defaults (for engines that refuse a parent of "/").
 */
export const cpuPlacement: Effect.Effect<CpuPlacement | null> = Effect.suspend(() => {
  if (process.env["HERMETIC_CONTAINER_CPU"] === "engine") return Effect.succeed(null)
  const cpuShares = weightOfNice(getPriority())
  // the systemd driver wants a slice name as parent; there the per-container weight applies within the engine's slice
  return Effect.map(cgroupDriver, (d): CpuPlacement => (d === "cgroupfs" ? { cpuShares, cgroupParent: "/" } : { cpuShares }))
})
