// A/B: isolated tests (script a reply, one chat completion) over HTTP against two emulator builds,
// A = @hermetic-a/emulator (see ab-two-builds.ts), B = packages/emulator/dist; 6 alternating rounds of 500.
//   npx tsx evidence/perf6/tools/ab-suite-over-http.ts
import { readFileSync, writeFileSync } from "node:fs"
import { startChild } from "../../../bench/child.js"
import { type Fetch, oneTest } from "../../../bench/suiteTest.js"
const b = await startChild("bench/servers/emulator.ts")
const built = readFileSync("bench/servers/.emulator.built.mjs", "utf8").replace(/from "@hermetic\/emulator"/g, 'from "@hermetic-a/emulator"')
writeFileSync("bench/servers/emulator-a.mjs", built)
const a = await startChild("bench/servers/emulator-a.mjs")
const f: Fetch = (input, init) => fetch(input, init)
for (const c of [a, b]) for (let i = 0; i < 50; i++) await oneTest(f, c.baseUrl, `warm-${i}`, i)
const res: Record<string, number[]> = { A: [], B: [] }
for (let r = 0; r < 6; r++) {
  for (const [name, c] of (r % 2 ? [["B", b], ["A", a]] : [["A", a], ["B", b]]) as Array<[string, typeof a]>) {
    const t0 = performance.now()
    for (let i = 0; i < 500; i++) await oneTest(f, c.baseUrl, `r${r}-${i}`, i)
    res[name]!.push((performance.now() - t0) / 500)
  }
}
const med = (x: number[]) => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)]!
console.log(`ms per test over HTTP: A ${med(res.A!).toFixed(3)} [${res.A!.map((x) => x.toFixed(2)).join(" ")}]  B ${med(res.B!).toFixed(3)} [${res.B!.map((x) => x.toFixed(2)).join(" ")}]`)
await a.stop(); await b.stop()
