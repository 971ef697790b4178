// Which per-call constructs survive V8's young-generation collections (Node 20, V8 11.3)?
// Each case makes an 8 KB array, lets one construct reach it, and drops everything; the old
// space then grows by the array (~8 KB) when the construct kept it through two scavenges.
// Each case runs in a fresh node (a case's survivors change V8's later pretenuring decisions).
//   node bench/tools/v8-retention.mjs
import { execFileSync } from "node:child_process"
import v8 from "node:v8"
const old = () => { const s = v8.getHeapSpaceStatistics(); return s.find((x) => x.space_name === "old_space").space_used_size + s.find((x) => x.space_name === "large_object_space").space_used_size }
function* declaredOnce(b) { yield 1; return b.length }
class Primitive { op = "x"; i0 = undefined; i1 = undefined }
const cases = {
  "generator function made per call, closing over it": (big) => { const it = (function* () { yield 1; return big.length })(); while (!it.next().done); },
  "generator declared once, given it as an argument": (big) => { const it = declaredOnce(big); while (!it.next().done); },
  "arrow closing over it, called": (big) => { const f = () => big.length; f() },
  "arrow closing over it, assigned to a property": (big) => { const o = { f: undefined }; o.f = () => big.length },
  "the same arrow, assigned to a property through a const": (big) => { const o = { f: undefined }; const f = () => big.length; o.f = f },
  "arrow assigned to a class field that was undefined (Effect's uninterruptible)": (big) => { const e = new Primitive(); e.i1 = () => big },
  "arrow in an object literal": (big) => { const o = { f: () => big.length }; o.f() },
  "plain object assigned to a property": (big) => { const o = { f: undefined }; o.f = { big } },
}
const only = process.argv[2]
if (only === undefined) {
  for (const name of Object.keys(cases)) process.stdout.write(execFileSync(process.execPath, ["--expose-gc", new URL(import.meta.url).pathname, name], { encoding: "utf8" }))
  process.exit(0)
}
for (const [name, run] of Object.entries(cases).filter(([n]) => n === only)) {
  // through a function of its own, so that no stack slot of this loop still holds the last array
  const one = () => run(new Array(1000).fill(1))
  for (let i = 0; i < 500; i++) one()
  gc()
  const deltas = []
  for (let i = 0; i < 10; i++) {
    gc({ type: "minor" }); gc({ type: "minor" })
    const o0 = old()
    for (let k = 0; k < 4; k++) one()
    gc({ type: "minor" }); gc({ type: "minor" })
    deltas.push((old() - o0) / 4)
  }
  deltas.sort((a, b) => a - b)
  console.log(`${String(deltas[5]).padStart(6)} B kept per call  ${name}`)
}
