/**
 * CPU a fresh gateway costs before it answers /health: started as a new interpreter (the process
 * launcher) and forked from a fork server (ForkServer.ts), N of each, alternated. Read from
 * /proc/<pid>/stat (utime + stime) the moment the gateway is ready, so a loaded machine's waiting
 * is left out. docs/fresh-state.md quotes it.
 *
 *   node --conditions=@hermetic/source --import tsx bench/gateway-start-cpu.ts [N]
 */
import { readFileSync } from "node:fs"
import { scopedGateway, scopedGatewayForkServer } from "@hermetic/oracle-runner"
import { Effect } from "effect"

const n = Number(process.argv[2] ?? "3")
const ticks = Number(process.env["CLK_TCK"] ?? "100")
const cpuSeconds = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(f[11]) + Number(f[12])) / ticks
}
const options = { pin: "0.19.0", launcher: "process" as const, clock: {}, killOnRelease: true }

const program = Effect.gen(function*() {
  const server = yield* scopedGatewayForkServer(options)
  const serverCpu = server.pid !== undefined ? cpuSeconds(server.pid) : Number.NaN
  const rows: Record<"process" | "fork", Array<number>> = { process: [], fork: [] }
  for (let i = 0; i < n; i++) {
    for (const kind of ["process", "fork"] as const) {
      const cpu = yield* Effect.scoped(
        Effect.gen(function*() {
          const t0 = performance.now()
          const gw = yield* scopedGateway(kind === "fork" ? { ...options, forkServer: server } : options)
          const pid = gw.processGroup()
          const wall = (performance.now() - t0) / 1000
          return { cpu: pid === null ? Number.NaN : cpuSeconds(pid), wall }
        })
      )
      rows[kind].push(cpu.cpu)
      process.stderr.write(`${kind}: ${cpu.cpu.toFixed(2)} s CPU, ${cpu.wall.toFixed(1)} s wall to ready\n`)
    }
  }
  const mean = (xs: Array<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
  process.stdout.write(`fork server preload: ${serverCpu.toFixed(2)} s CPU once\n`)
  process.stdout.write(`gateway CPU to ready, mean of ${n}: process ${mean(rows.process).toFixed(2)} s, fork ${mean(rows.fork).toFixed(2)} s\n`)
})

Effect.runPromise(Effect.scoped(program)).catch((e: unknown) => {
  process.stderr.write(`${String(e)}\n`)
  process.exitCode = 2
})
