/**
 * The workers section of a campaign's REPORT.md, from workers-bench.json: scenarios/s for each
 * worker count side by side, the speed-up over one worker, and where the CPU went — so that a
 * speed-up short of the worker count can be read against what the machine had to give.
 */
import { Schema } from "effect"
import { WorkersBench } from "../pictures/benchPictures.js"

export const WORKERS_SECTION = "workers"

const pct = (n: number | null | undefined) => (n === null || n === undefined ? "?" : `${Math.round(n * 100)} %`)

export const renderWorkersSection = (json: unknown): string | undefined => {
  const decoded = Schema.decodeUnknownEither(WorkersBench)(json)
  if (decoded._tag === "Left" || decoded.right.points.length === 0) return undefined
  const bench = decoded.right
  const base = bench.points[0]?.scenariosPerSecond ?? 0
  const rows = bench.points.map((p) => {
    const cpu = p.cpu
    return [
      p.workers,
      p.scenarios,
      p.wallSeconds?.toFixed(1) ?? "?",
      p.scenariosPerSecond,
      base === 0 ? "?" : `${(p.scenariosPerSecond / base).toFixed(2)}×`,
      cpu === undefined ? "?" : cpu.runnerSeconds.toFixed(1),
      cpu === undefined ? "?" : `${cpu.gatewaySeconds.toFixed(1)}${cpu.gatewaySecondsComplete ? "" : "+"}`,
      p.cpuSecondsPerScenario?.toFixed(2) ?? "?",
      pct(cpu?.machineBusy),
      `${p.loadAverageBefore[0] ?? "?"} → ${p.loadAverageAfter[0] ?? "?"}`,
      p.divergent === undefined ? "?" : `${p.divergent} / ${p.errors ?? "?"}`
    ]
  })
  const last = bench.points[bench.points.length - 1]
  return [
    `### Workers: real gateway (${bench.launcher} launcher), ${bench.points.map((p) => p.workers).join(" / ")} side by side`,
    "",
    `\`${bench.command}\`, ${bench.measuredAt}. Each point plays the same set (every scenario twice on the real gateway, once on the emulator). ` +
      "CPU is the kernel's count over the whole point, gateway start and stop included: the runner is the Node process (emulators, differ, clients), " +
      "the gateways are their processes or containers; machine busy counts everyone's work on the machine.",
    "",
    "| workers | scenarios | wall s | scenarios/s | speed-up | runner CPU s | gateway CPU s | CPU s per scenario | machine busy | load (1 min) before → after | divergent / errors |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |",
    ...rows.map((r) => `| ${r.join(" | ")} |`),
    "",
    ...(last?.cpuBoundScenariosPerSecond !== undefined && last.cpu !== undefined
      ? [
        `At ${last.cpuSecondsPerScenario} CPU s per scenario, the ${last.cpu.cpus} cores would allow ${last.cpuBoundScenariosPerSecond} scenarios/s if nothing else ran; ` +
          `the machine was ${pct(last.cpu.machineBusy)} busy during the ${last.workers}-worker point, so what the workers could gain was the CPU others left.`,
        ""
      ]
      : [])
  ].join("\n")
}
