/**
 * CPU time used by this runner's gateway containers, summed over every container it removed and
 * those still running: what `oracle bench` reports beside the runner's own CPU. A container's
 * processes are not the runner's children, so the kernel does not add them to its rusage; they are
 * read from the container's cgroup (v1 cpuacct or v2 cpu.stat) just before it is stopped.
 */
import { readFileSync } from "node:fs"

const live = new Set<string>()
let removedSeconds = 0
let unreadable = 0

const cgroupFiles = (id: string): Array<[string, (text: string) => number]> => {
  const v1 = (t: string) => Number(t.trim()) / 1e9
  const v2 = (t: string) => Number(/usage_usec (\d+)/.exec(t)?.[1] ?? Number.NaN) / 1e6
  return [
    [`/sys/fs/cgroup/cpuacct/${id}/cpuacct.usage`, v1],
    [`/sys/fs/cgroup/cpuacct/docker/${id}/cpuacct.usage`, v1],
    [`/sys/fs/cgroup/${id}/cpu.stat`, v2],
    [`/sys/fs/cgroup/docker/${id}/cpu.stat`, v2],
    [`/sys/fs/cgroup/system.slice/docker-${id}.scope/cpu.stat`, v2]
  ]
}

/** CPU seconds of a running container, or null where its cgroup cannot be read. */
const readContainerCpu = (id: string): number | null => {
  for (const [file, parse] of cgroupFiles(id)) {
    try {
      const s = parse(readFileSync(file, "utf8"))
      if (Number.isFinite(s)) return s
    } catch {
      // not this layout
    }
  }
  return null
}

export const trackContainerCpu = (id: string): void => void live.add(id)

/** Call just before the container is signalled to stop: its processes' CPU is still in its cgroup. */
export const settleContainerCpu = (id: string): void => {
  if (!live.delete(id)) return
  const s = readContainerCpu(id)
  if (s === null) unreadable++
  else removedSeconds += s
}

/** CPU seconds of this runner's gateway containers so far; `complete` is false when some cgroup could not be read. */
export const containerCpuSeconds = (): { readonly seconds: number; readonly complete: boolean } => {
  let seconds = removedSeconds
  let missing = unreadable
  for (const id of live) {
    const s = readContainerCpu(id)
    if (s === null) missing++
    else seconds += s
  }
  return { seconds, complete: missing === 0 }
}
