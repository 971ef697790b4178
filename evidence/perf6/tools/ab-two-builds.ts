// A/B of two emulator builds over HTTP, alternating rounds in one run: A = the package linked as
// node_modules/@hermetic-a/emulator (package.json {"name":"@hermetic-a/emulator","type":"module",
// "exports":{".":"./dist/index.js"}} beside an earlier build's dist/), B = packages/emulator/dist.
//   npx tsx evidence/perf6/tools/ab-two-builds.ts 0,1,2 6   (ops: 0 GET run, 1 POST run, 2 keyed POST)
import { readFileSync, writeFileSync } from "node:fs"
import { startChild } from "../../../bench/child.js"
import { controlCpu, runLoad } from "../../../bench/load.js"
import { SPECS } from "../../../bench/emulator-vs-bare.js"
const only = (process.argv[2] ?? "1").split(",").map(Number)
const rounds = Number(process.argv[3] ?? 6)
const b = await startChild("bench/servers/emulator.ts")
const built = readFileSync("bench/servers/.emulator.built.mjs", "utf8").replace(/from "@hermetic\/emulator"/g, 'from "@hermetic-a/emulator"')
writeFileSync("bench/servers/emulator-a.mjs", built)
const a = await startChild("bench/servers/emulator-a.mjs")
const t = (c: typeof a) => ({ baseUrl: c.baseUrl, apiKey: "bench-key-0123456789abcdef", runId: c.runId, cpuMicros: controlCpu(c.controlPort) })
const med = (x: number[]) => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)]!
for (const i of only) {
  const ea: number[] = [], eb: number[] = []
  for (let r = 0; r < rounds; r++) {
    for (const [c, sink] of (r % 2 ? [[b, eb], [a, ea]] : [[a, ea], [b, eb]]) as Array<[typeof a, number[]]>) {
      await runLoad(SPECS[i]!, t(c), 1)
      sink.push((await runLoad(SPECS[i]!, t(c), 3)).cpuMicrosPerRequest)
    }
  }
  console.log(`${SPECS[i]!.name.padEnd(28)} A ${med(ea).toFixed(1)} µs [${ea.map((x) => x.toFixed(0)).join(" ")}]  B ${med(eb).toFixed(1)} [${eb.map((x) => x.toFixed(0)).join(" ")}]  B/A ${(med(eb) / med(ea)).toFixed(3)}`)
}
await a.stop(); await b.stop()
