// The same question for Effect 3 combinators, each run to completion by Effect.runPromise: does
// what the effect closes over (an 8 KB array) survive two young-generation collections?
//   node bench/tools/effect-retention.mjs
import { Effect } from "effect"
import { runRetentionCases } from "./retention-cases.mjs"
function* declaredOnce(big) { yield* Effect.void; return big.length }
const cases = {
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
await runRetentionCases(cases, import.meta.url)
