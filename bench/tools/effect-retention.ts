// bench/tools/v8-retention.ts's question for Effect 3 combinators, each run to completion by
// Effect.runPromise: does what the effect closes over (an 8 KB array) survive two young-generation
// collections?
//   node --import tsx bench/tools/effect-retention.ts
import { Effect } from "effect"
import { type RetentionCase, runRetentionCases } from "./retention-cases.js"

function* declaredOnce(big: ReadonlyArray<number>) {
  yield* Effect.void
  return big.length
}
const cases: Record<string, RetentionCase> = {
  "Effect.sync": (big) => Effect.sync(() => big.length),
  "Effect.suspend": (big) => Effect.suspend(() => Effect.succeed(big.length)),
  "Effect.gen, generator made per call": (big) => Effect.gen(function* () { yield* Effect.void; return big.length }),
  "Effect.gen over a generator declared once": (big) => Effect.gen(() => declaredOnce(big)),
  "Effect.map": (big) => Effect.map(Effect.succeed(1), () => big.length),
  "Effect.ensuring": (big) => Effect.ensuring(Effect.sync(() => big.length), Effect.void),
  "Effect.onExit": (big) => Effect.onExit(Effect.sync(() => big.length), () => Effect.void),
  "Effect.uninterruptible": (big) => Effect.uninterruptible(Effect.sync(() => big.length)),
  "Effect.promise": (big) => Effect.promise(() => Promise.resolve(big.length)),
  "Effect.async": (big) => Effect.async<number>((resume) => resume(Effect.succeed(big.length))),
  "Effect.forkDaemon": (big) => Effect.forkDaemon(Effect.sync(() => big.length)),
  "fiber observer (withFiberRuntime + addObserver)": (big) => Effect.withFiberRuntime((fiber) => { fiber.addObserver(() => big.length); return Effect.void })
}
await runRetentionCases(cases, import.meta.url)
