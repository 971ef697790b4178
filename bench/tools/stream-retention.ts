// bench/tools/effect-retention.ts's question for Effect's Stream and Queue: each case run to
// completion by Effect.runPromise, does what it closes over (an 8 KB array) survive two
// young-generation collections? (Effect.sync is the last case, for scale.)
//   node --import tsx bench/tools/stream-retention.ts
import { Effect, Option, Queue, Stream } from "effect"
import { type RetentionCase, runRetentionCases } from "./retention-cases.js"

const cases: Record<string, RetentionCase> = {
  "Stream.runForEach over Stream.make": (big) => Stream.runForEach(Stream.make(1, 2, 3), () => Effect.sync(() => big.length)),
  "Stream.runForEach over fromQueue+takeWhile": (big) =>
    Effect.flatMap(Queue.unbounded<number | null>(), (q) =>
      Effect.zipRight(
        Queue.offerAll(q, [1, 2, null]),
        Stream.runForEach(Stream.fromQueue(q).pipe(Stream.takeWhile((x) => x !== null)), () => Effect.sync(() => big.length))
      )),
  "Stream.unfoldEffect": (big) =>
    Stream.runForEach(
      Stream.unfoldEffect(0, (n) => Effect.succeed(n < 3 ? Option.some([n, n + 1] as const) : Option.none())),
      () => Effect.sync(() => big.length)
    ),
  "Queue.unbounded + take": (big) => Effect.flatMap(Queue.unbounded<number>(), (q) => Effect.zipRight(Queue.offer(q, 1), Effect.map(Queue.take(q), () => big.length))),
  "Effect.sync": (big) => Effect.sync(() => big.length)
}
await runRetentionCases(cases, import.meta.url)
