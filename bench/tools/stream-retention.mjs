// bench/tools/effect-retention.mjs's question for Effect's Stream and Queue: each case run
// to completion by Effect.runPromise, does what it closes over (an 8 KB array) survive two
// young-generation collections? Any Stream.runForEach keeps ~30-53 KB in old space per run.
//   node bench/tools/stream-retention.mjs   (Effect.sync, which keeps ~48 B, for scale)
import { Effect, Option, Queue, Stream } from "effect"
import { runRetentionCases } from "./retention-cases.mjs"

const cases = {
  "Stream.runForEach over Stream.make": (big) => Stream.runForEach(Stream.make(1, 2, 3), () => Effect.sync(() => big.length)),
  "Stream.runForEach over fromQueue+takeWhile": (big) =>
    Effect.flatMap(Queue.unbounded(), (q) =>
      Effect.zipRight(Queue.offerAll(q, [1, 2, null]), Stream.runForEach(Stream.fromQueue(q).pipe(Stream.takeWhile((x) => x !== null)), () => Effect.sync(() => big.length)))),
  "Stream.unfoldEffect": (big) =>
    Stream.runForEach(Stream.unfoldEffect(0, (n) => Effect.succeed(n < 3 ? Option.some([n, n + 1]) : Option.none())), () => Effect.sync(() => big.length)),
  "Queue.unbounded + take": (big) => Effect.flatMap(Queue.unbounded(), (q) => Effect.zipRight(Queue.offer(q, 1), Effect.map(Queue.take(q), () => big.length))),
  "Effect.sync": (big) => Effect.sync(() => big.length)
}
await runRetentionCases(cases, import.meta.url)
