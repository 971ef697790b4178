/**
 * Where a benchmark point's CPU went, from the kernel's own counters (Linux /proc): the runner
 * itself (the Node process: the emulators in process, the differ, the HTTP clients), its gateways
 * (host processes: the children it reaped, /proc/self/stat cutime+cstime; containers: their
 * cgroups, through the oracle runner), and how busy the whole machine was, others' work included.
 */
import { readFileSync } from "node:fs"
import { cpus } from "node:os"
import { loadedOracleRunner } from "../target/oracleRunner.js"

/** USER_HZ: the unit of /proc/self/stat and /proc/stat on every Linux build this runs on. */
const TICKS_PER_SECOND = 100

export interface CpuSample {
  readonly runner: number
  readonly reapedChildren: number
  readonly containers: number
  readonly containersComplete: boolean
  /** Busy and total jiffies of the whole machine (/proc/stat), or null off Linux. */
  readonly machine: { readonly busy: number; readonly total: number } | null
}

export interface CpuUse {
  /** CPU seconds of the runner's own process. */
  readonly runnerSeconds: number
  /** CPU seconds of its gateways (reaped host processes + containers). */
  readonly gatewaySeconds: number
  /** False where a container's cgroup could not be read: gatewaySeconds is then a lower bound. */
  readonly gatewaySecondsComplete: boolean
  /** Fraction of all the machine's CPUs busy over the interval (anyone's work), or null off Linux. */
  readonly machineBusy: number | null
  readonly cpus: number
}

const readOr = (file: string): string | null => {
  try {
    return readFileSync(file, "utf8")
  } catch {
    return null
  }
}

export const sampleCpu = (): CpuSample => {
  const usage = process.cpuUsage()
  // fields after the command name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14
  const stat = readOr("/proc/self/stat")
  const fields = stat === null ? [] : stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  const reaped = (Number(fields[13] ?? 0) + Number(fields[14] ?? 0)) / TICKS_PER_SECOND
  const cpuLine = readOr("/proc/stat")?.split("\n")[0]?.split(/\s+/).slice(1).map(Number)
  // user nice system idle iowait irq softirq steal
  const machine = cpuLine === undefined || cpuLine.length < 8
    ? null
    : { busy: (cpuLine[0] ?? 0) + (cpuLine[1] ?? 0) + (cpuLine[2] ?? 0) + (cpuLine[5] ?? 0) + (cpuLine[6] ?? 0) + (cpuLine[7] ?? 0), total: cpuLine.slice(0, 8).reduce((a, b) => a + b, 0) }
  // no runner loaded, no container started
  const containers = loadedOracleRunner()?.containerCpuSeconds() ?? { seconds: 0, complete: true }
  return { runner: (usage.user + usage.system) / 1e6, reapedChildren: reaped, containers: containers.seconds, containersComplete: containers.complete, machine }
}

const round = (n: number) => Math.round(n * 100) / 100

export const cpuBetween = (a: CpuSample, b: CpuSample): CpuUse => ({
  runnerSeconds: round(b.runner - a.runner),
  gatewaySeconds: round(b.reapedChildren - a.reapedChildren + (b.containers - a.containers)),
  gatewaySecondsComplete: b.containersComplete,
  machineBusy: a.machine !== null && b.machine !== null && b.machine.total > a.machine.total ? round((b.machine.busy - a.machine.busy) / (b.machine.total - a.machine.total)) : null,
  cpus: cpus().length
})
