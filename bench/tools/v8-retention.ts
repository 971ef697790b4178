// Which per-call constructs survive V8's young-generation collections? Each case makes an 8 KB
// array, lets one construct reach it, and drops everything; the old space then grows by the array
// (~8 KB) when the construct kept it through two scavenges. Each case runs in a fresh plain node,
// compiled (bench/child.ts): a case's survivors change V8's later pretenuring decisions, and a
// loader's name-keeping wrappers (tsx's) would change the closures measured.
//   node --import tsx bench/tools/v8-retention.ts
import { execFileSync } from "node:child_process"
import { relative } from "node:path"
import { fileURLToPath } from "node:url"
import { compile, repoRoot } from "../child.js"
import { spread } from "../stats.js"
import { exposedGc, oldSpaceBytes, twoScavenges } from "./heap.js"

type Big = ReadonlyArray<number>
function* declaredOnce(b: Big) {
  yield 1
  return b.length
}
class Primitive {
  op = "x"
  i0: unknown = undefined
  i1: unknown = undefined
}
const cases: Record<string, (big: Big) => void> = {
  "generator function made per call, closing over it": (big) => { const it = (function* () { yield 1; return big.length })(); while (!it.next().done); },
  "generator declared once, given it as an argument": (big) => { const it = declaredOnce(big); while (!it.next().done); },
  "arrow closing over it, called": (big) => { const f = () => big.length; f() },
  "arrow closing over it, assigned to a property": (big) => { const o: { f: unknown } = { f: undefined }; o.f = () => big.length },
  "the same arrow, assigned to a property through a const": (big) => { const o: { f: unknown } = { f: undefined }; const f = () => big.length; o.f = f },
  "arrow assigned to a class field that was undefined (Effect's uninterruptible)": (big) => { const e = new Primitive(); e.i1 = () => big },
  "arrow in an object literal": (big) => { const o = { f: () => big.length }; o.f() },
  "plain object assigned to a property": (big) => { const o: { f: unknown } = { f: undefined }; o.f = { big } }
}
const only = process.argv[2]
if (only === undefined) {
  const plain = await compile(relative(repoRoot, fileURLToPath(import.meta.url)))
  for (const name of Object.keys(cases)) process.stdout.write(execFileSync(process.execPath, ["--expose-gc", plain, name], { encoding: "utf8" }))
  process.exit(0)
}
const run = cases[only]
if (run === undefined) throw new Error(`no case '${only}'`)
const gc = exposedGc()
// through a function of its own, so that no stack slot of this code still holds the last array
const one = () => run(new Array<number>(1000).fill(1))
for (let i = 0; i < 500; i++) one()
gc()
const deltas: Array<number> = []
for (let i = 0; i < 10; i++) {
  twoScavenges(gc)
  const o0 = oldSpaceBytes()
  for (let k = 0; k < 4; k++) one()
  twoScavenges(gc)
  deltas.push((oldSpaceBytes() - o0) / 4)
}
console.log(`${String(spread(deltas).median).padStart(6)} B kept per call  ${only}`)
