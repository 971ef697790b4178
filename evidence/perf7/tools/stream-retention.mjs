// evidence/perf6/tools/effect-retention.mjs with Effect's Stream and Queue added: each case run to
// completion by Effect.runPromise, does what it closes over (an 8 KB array) survive two
// young-generation collections? Any Stream.runForEach keeps ~40-50 KB in old space per run.
//   node evidence/perf7/tools/stream-retention.mjs
import { execFileSync } from "node:child_process"
import v8 from "node:v8"
import { Effect, Option, Queue, Stream } from "effect"
const old = () => { const s = v8.getHeapSpaceStatistics(); return s.find((x) => x.space_name === "old_space").space_used_size + s.find((x) => x.space_name === "large_object_space").space_used_size }
function* declaredOnce(big) { yield* Effect.void; return big.length }
const cases = {
  "Stream.runForEach over Stream.make": (big) => Stream.runForEach(Stream.make(1, 2, 3), () => Effect.sync(() => big.length)),
  "Stream.runForEach over fromQueue+takeWhile": (big) => Effect.flatMap(Queue.unbounded(), (q) => Effect.zipRight(Queue.offerAll(q, [1, 2, null]), Stream.runForEach(Stream.fromQueue(q).pipe(Stream.takeWhile((x) => x !== null)), () => Effect.sync(() => big.length)))),
  "Stream.unfoldEffect": (big) => Stream.runForEach(Stream.unfoldEffect(0, (n) => Effect.succeed(n < 3 ? Option.some([n, n + 1]) : Option.none())), () => Effect.sync(() => big.length)),
  "Queue.unbounded + take": (big) => Effect.flatMap(Queue.unbounded(), (q) => Effect.zipRight(Queue.offer(q, 1), Effect.map(Queue.take(q), () => big.length))),
  "Effect.sync": (big) => Effect.sync(() => big.length),
  "Effect.suspend": (big) => Effect.suspend(() => Effect.succeed(big.length)),
  "Effect.gen, generator made per call": (big) => Effect.gen(function* () { yield* Effect.void; return big.length }),
  "Effect.gen over a generator declared once": (big) => Effect.gen(() => declaredOnce(big)),
  "Effect.map": (big) => Effect.map(Effect.succeed(1), () => big.length),
  "Effect.ensuring": (big) => Effect.ensuring(Effect.sync(() => big.length), Effect.void),
  "Effect.onExit": (big) => Effect.onExit(Effect.sync(() => big.length), () => Effect.void),
  "Effect.uninterruptible": (big) => Effect.uninterruptible(Effect.sync(() => big.length)),
  "Effect.promise": (big) => Effect.promise(() => Promise.resolve(big.length)),
  "Effect.async": (big) => Effect.async((resume) => resume(Effect.succeed(big.length))),
  "Effect.forkDaemon": (big) => Effect.forkDaemon(Effect.sync(() => big.length)),
  "fiber observer (withFiberRuntime + addObserver)": (big) => Effect.withFiberRuntime((fiber) => { fiber.addObserver(() => big.length); return Effect.void }),
}
const only = process.argv[2]
if (only === undefined) {
  for (const name of Object.keys(cases)) process.stdout.write(execFileSync(process.execPath, ["--expose-gc", new URL(import.meta.url).pathname, name], { encoding: "utf8" }))
  process.exit(0)
}
const make = cases[only]
const one = () => Effect.runPromise(make(new Array(1000).fill(1)))
const settle = async () => { for (let k = 0; k < 5; k++) await new Promise(setImmediate); await new Promise((r) => setTimeout(r, 2)) }
for (let i = 0; i < 300; i++) await one()
gc(); await settle(); gc()
const deltas = []
for (let i = 0; i < 20; i++) {
  await settle(); gc({ type: "minor" }); gc({ type: "minor" })
  const o0 = old()
  for (let k = 0; k < 4; k++) await one()
  await settle(); gc({ type: "minor" }); gc({ type: "minor" })
  deltas.push((old() - o0) / 4)
}
deltas.sort((a, b) => a - b)
console.log(`${String(deltas[10]).padStart(6)} B kept per run  ${only}`)
