// The Layer's start in process, two builds of @hermetic/emulator side by side: each sample is a
// fresh plain node that imports the package, starts the Layer once (cold: nothing compiled yet),
// then five more times (warm, what the bench's "Layer start in process" measures after one start).
// Builds alternate, `rounds` processes each.
//   node --import tsx bench/tools/layer-start-ab.ts A=/path/dist/index.js B=/path/dist/index.js [rounds]
import { execFileSync } from "node:child_process"
import { Schema } from "effect"
import { spread } from "../stats.js"

// the child is plain JavaScript on plain node (no loader), as users run the package
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
const Times = Schema.parseJson(Schema.NonEmptyArray(Schema.Number))
const args = process.argv.slice(2)
const builds = args.flatMap((a) => {
  const at = a.indexOf("=")
  return at < 0 ? [] : [[a.slice(0, at), a.slice(at + 1)] as const]
})
if (builds.length === 0) throw new Error("usage: layer-start-ab.ts NAME=/path/dist/index.js ... [rounds]")
const rounds = Number(args.find((a) => !a.includes("=")) ?? 8)
const res = new Map(builds.map(([k]) => [k, { cold: new Array<number>(), warm: new Array<number>() }]))
for (let r = 0; r < rounds; r++) {
  for (const [k, path] of r % 2 === 0 ? builds : [...builds].reverse()) {
    const [cold, ...warm] = Schema.decodeUnknownSync(Times)(execFileSync("node", ["--input-type=module", "-e", child, path], { encoding: "utf8" }))
    res.get(k)?.cold.push(cold)
    res.get(k)?.warm.push(...warm)
  }
}
for (const [k, v] of res) {
  const c = spread(v.cold), w = spread(v.warm)
  console.log(`${k}: cold ${c.median.toFixed(2)} ms (${c.min.toFixed(1)}-${c.max.toFixed(1)}), warm ${w.median.toFixed(2)} ms (${w.min.toFixed(2)}-${w.max.toFixed(2)}), ${v.cold.length} processes`)
}
