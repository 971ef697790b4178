/**
 * What the emulator's resident memory is made of, for bench/soak-growth.ts: preloaded into the
 * bundled CLI (`node --require bench/tools/memory-report.ts`, which reaches worker threads too;
 * Node's own type stripping, so only erasable syntax here), every thread writes its V8 heap and
 * `process.memoryUsage()` to $HERMETIC_MEMORY_REPORT.thread-N.json each second. The main thread
 * (N = 0) also writes the process's largest mappings from /proc/self/smaps: glibc's malloc
 * arenas (one per thread that allocated, up to 64 MiB each), V8's heap, the mapped files. On
 * SIGUSR2 (the process started with --expose-gc) the main thread collects fully, then writes.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8"
import { isMainThread, threadId } from "node:worker_threads"

const out = process.env["HERMETIC_MEMORY_REPORT"]

interface Mapping {
  readonly name: string
  readonly sizeKiB: number
  readonly rssKiB: number
}

/** /proc/self/smaps: every mapping with its size and resident KiB, largest resident first. */
const mappings = (): Array<Mapping> => {
  const rows: Array<Mapping> = []
  let current: { name: string; sizeKiB: number } | undefined
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+\s+\S+\s+\S+\s+\S+\s+\d+\s*(.*)$/.exec(line)
    if (head !== null) {
      current = { name: head[1] === undefined || head[1] === "" ? "[anon]" : head[1], sizeKiB: 0 }
      continue
    }
    const size = /^Size:\s+(\d+) kB/.exec(line)
    if (size !== null && current !== undefined) current.sizeKiB = Number(size[1])
    const rss = /^Rss:\s+(\d+) kB/.exec(line)
    if (rss !== null && current !== undefined) rows.push({ ...current, rssKiB: Number(rss[1]) })
  }
  return rows.sort((a, b) => b.rssKiB - a.rssKiB)
}

const write = () => {
  if (out === undefined) return
  const heap = getHeapStatistics()
  const mib = (n: number) => Number((n / 2 ** 20).toFixed(1))
  const usage = process.memoryUsage()
  const report: Record<string, unknown> = {
    thread: threadId,
    heapMiB: { total: mib(heap.total_heap_size), used: mib(heap.used_heap_size), external: mib(heap.external_memory), malloced: mib(heap.malloced_memory) },
    // per space: a young generation sized for the allocation rate shows here as new_space
    spacesMiB: Object.fromEntries(getHeapSpaceStatistics().map((x) => [x.space_name, { size: mib(x.space_size), used: mib(x.space_used_size) }])),
    processMiB: { rss: mib(usage.rss), external: mib(usage.external), arrayBuffers: mib(usage.arrayBuffers) }
  }
  if (isMainThread) {
    const all = mappings()
    const anonByMapSize = new Map<number, { count: number; rssKiB: number }>()
    for (const m of all.filter((x) => x.name === "[anon]")) {
      const e = anonByMapSize.get(m.sizeKiB) ?? { count: 0, rssKiB: 0 }
      anonByMapSize.set(m.sizeKiB, { count: e.count + 1, rssKiB: e.rssKiB + m.rssKiB })
    }
    report["largestMappings"] = all.slice(0, 12)
    // anonymous memory grouped by mapping size: 64 MiB-sized ones (65,536 KiB, or split into two that add up) are malloc arenas
    report["anonBySize"] = [...anonByMapSize.entries()].map(([sizeKiB, e]) => ({ sizeKiB, ...e })).sort((a, b) => b.rssKiB - a.rssKiB).slice(0, 12)
    report["brkHeapKiB"] = all.filter((x) => x.name === "[heap]").reduce((n, x) => n + x.rssKiB, 0)
  }
  writeFileSync(`${out}.thread-${threadId}.json`, `${JSON.stringify(report, null, 2)}\n`)
}

if (out !== undefined) {
  setInterval(write, 1000).unref()
  // SIGUSR2 (with --expose-gc): a full collection first, so the heap's used size is what is retained
  if (isMainThread)
    process.on("SIGUSR2", () => {
      const gc = (globalThis as { gc?: () => void }).gc
      if (gc !== undefined) gc()
      write()
    })
}
