/**
 * The benchmarks as pictures: read from evidence/bench.json (the bench tool's file) and
 * evidence/campaigns/workers-bench.json (`oracle bench --target process`). Only the fields drawn
 * are decoded, and a section the file lacks is simply not drawn.
 */
import { Schema } from "effect"
import { barChart } from "./barChart.js"
import { lineChart, type Series } from "./lineChart.js"

const Spread = Schema.Struct({ median: Schema.Number, min: Schema.Number, max: Schema.Number })
const Measured = Schema.Struct({ rps: Spread, p50Ms: Schema.optional(Spread), p99Ms: Schema.optional(Spread) })

const Bench = Schema.Struct({
  measuredAt: Schema.optional(Schema.String),
  machine: Schema.optional(Schema.Struct({ cpus: Schema.optional(Schema.Number) })),
  scale: Schema.optional(
    Schema.Struct({
      pin: Schema.optional(Schema.String),
      points: Schema.Array(Schema.Struct({ runs: Schema.Number, getInMemory: Schema.optional(Measured), getFromLedger: Schema.optional(Measured) }))
    })
  ),
  emulatorVsGateway: Schema.optional(
    Schema.Struct({ pin: Schema.optional(Schema.String), rows: Schema.Array(Schema.Struct({ name: Schema.String, emulator: Measured, gateway: Measured })) })
  )
})

/** workers-bench.json as `oracle bench --target process|container` writes it (the CPU fields since the second session). */
export const WorkersBench = Schema.Struct({
  measuredAt: Schema.String,
  command: Schema.String,
  launcher: Schema.String,
  points: Schema.Array(
    Schema.Struct({
      workers: Schema.Number,
      scenarios: Schema.Number,
      divergent: Schema.optional(Schema.Number),
      errors: Schema.optional(Schema.Number),
      wallSeconds: Schema.optional(Schema.Number),
      scenariosPerSecond: Schema.Number,
      loadAverageBefore: Schema.Array(Schema.Number),
      loadAverageAfter: Schema.Array(Schema.Number),
      cpu: Schema.optional(
        Schema.Struct({
          runnerSeconds: Schema.Number,
          gatewaySeconds: Schema.Number,
          gatewaySecondsComplete: Schema.Boolean,
          machineBusy: Schema.NullOr(Schema.Number),
          cpus: Schema.Number
        })
      ),
      cpuSecondsPerScenario: Schema.optional(Schema.Number),
      cpuBoundScenariosPerSecond: Schema.optional(Schema.Number)
    })
  )
})
export type WorkersBench = typeof WorkersBench.Type

export interface Picture {
  readonly file: string
  readonly alt: string
  readonly svg: string
}

const decode = <A, I>(schema: Schema.Schema<A, I>, json: unknown): A | undefined => {
  const r = Schema.decodeUnknownEither(schema)(json)
  return r._tag === "Right" ? r.right : undefined
}

/** The scale curve (GET /v1/runs/{id} throughput against stored runs) and the emulator-vs-gateway speed bars. */
export const benchPictures = (json: unknown): Array<Picture> => {
  const bench = decode(Bench, json)
  if (bench === undefined) return []
  const pictures: Array<Picture> = []
  const scale = bench.scale
  if (scale !== undefined && scale.points.length > 0) {
    const series: Array<Series> = []
    type ScalePoint = (typeof scale.points)[number]
    const add = (name: string, pick: (p: ScalePoint) => typeof Measured.Type | undefined) => {
      const points = scale.points.flatMap((p) => {
        const m = pick(p)
        return m === undefined ? [] : [{ x: p.runs, y: m.rps.median, min: m.rps.min, max: m.rps.max }]
      })
      if (points.length > 0) series.push({ name, points })
    }
    add("GET run, live in memory", (p) => p.getInMemory)
    add("GET run, from the ledger", (p) => p.getFromLedger)
    pictures.push({
      file: "bench-scale.svg",
      alt: "emulator throughput against stored runs",
      svg: lineChart(series, {
        title: `Scale: emulator GET /v1/runs/{id} against stored runs${scale.pin !== undefined ? ` (pin ${scale.pin})` : ""}`,
        subtitle: `median requests/s with min–max of the rounds · evidence/bench.json${bench.measuredAt !== undefined ? ` · ${bench.measuredAt}` : ""}`,
        xLabel: "runs stored (log)",
        yLabel: "requests/s",
        logX: true
      })
    })
  }
  const speed = bench.emulatorVsGateway
  if (speed !== undefined && speed.rows.length > 0) {
    pictures.push({
      file: "bench-speed.svg",
      alt: "emulator against the real gateway, requests per second",
      svg: barChart(
        speed.rows.map((r) => ({
          name: r.name,
          values: [
            { series: "emulator", value: r.emulator.rps.median, min: r.emulator.rps.min, max: r.emulator.rps.max },
            { series: "real gateway", value: r.gateway.rps.median, min: r.gateway.rps.min, max: r.gateway.rps.max }
          ]
        })),
        { title: `Speed: emulator against the real gateway${speed.pin !== undefined ? ` ${speed.pin}` : ""}`, subtitle: "median requests/s (log), line = min–max of the rounds · evidence/bench.json", xLabel: "requests/s (log)" }
      )
    })
  }
  return pictures
}

/** Reference scenarios per second against the number of workers. */
export const workersPicture = (json: unknown): Picture | undefined => {
  const bench = decode(WorkersBench, json)
  if (bench === undefined || bench.points.length === 0) return undefined
  const loads = bench.points.map((p) => p.loadAverageBefore[0] ?? 0)
  return {
    file: "workers-speed.svg",
    alt: "reference scenarios per second against workers",
    svg: lineChart(
      [
        {
          name: `real gateway (${bench.launcher})`,
          points: bench.points.map((p) => ({ x: p.workers, y: p.scenariosPerSecond, label: `${p.scenariosPerSecond}/s, load ${p.loadAverageBefore[0] ?? "?"}` }))
        }
      ],
      {
        title: "Campaign speed: scenarios/s against workers",
        subtitle: `${bench.points[0]?.scenarios ?? 0} scenarios per point · load average ${Math.min(...loads)}–${Math.max(...loads)} · ${bench.measuredAt}`,
        xLabel: "workers (gateway + emulator pairs)",
        yLabel: "scenarios/s (wall clock)"
      }
    )
  }
}
