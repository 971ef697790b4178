#!/usr/bin/env node
// The Layer's start in process, two builds of @hermetic/emulator side by side: each sample is a
// fresh node that imports the package, starts the Layer once (cold: nothing compiled yet), then
// five more times (warm, what the bench's "Layer start in process" measures after one start).
// Builds alternate, `rounds` processes each. usage: node layer-start-ab.mjs A=/path/dist/index.js B=/path/dist/index.js [rounds]
import { execFileSync } from "node:child_process"

const child = `
const { ManagedRuntime } = await import("effect")
const { Emulator, layer } = await import(process.argv[1])
const times = []
for (let i = 0; i < 6; i++) {
  const t = performance.now()
  const rt = ManagedRuntime.make(layer({ apiKey: "k-0123456789abcdefghij", hermesVersion: "0.21.0" }))
  await rt.runPromise(Emulator)
  times.push(performance.now() - t)
  await rt.dispose()
}
console.log(JSON.stringify(times))
`
const builds = process.argv.slice(2).filter((a) => a.includes("=")).map((a) => a.split("="))
const rounds = Number(process.argv.slice(2).find((a) => !a.includes("=")) ?? 8)
const res = Object.fromEntries(builds.map(([k]) => [k, { cold: [], warm: [] }]))
for (let r = 0; r < rounds; r++) {
  for (const [k, path] of r % 2 === 0 ? builds : [...builds].reverse()) {
    const times = JSON.parse(execFileSync("node", ["--input-type=module", "-e", child, path], { encoding: "utf8" }))
    res[k].cold.push(times[0])
    res[k].warm.push(...times.slice(1))
  }
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
for (const [k, v] of Object.entries(res)) console.log(`${k}: cold ${med(v.cold).toFixed(2)} ms (${Math.min(...v.cold).toFixed(1)}-${Math.max(...v.cold).toFixed(1)}), warm ${med(v.warm).toFixed(2)} ms (${Math.min(...v.warm).toFixed(2)}-${Math.max(...v.warm).toFixed(2)}), ${v.cold.length} processes`)
