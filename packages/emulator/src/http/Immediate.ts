/**
 * Most requests wait on nothing: their handlers' effects are already-complete Exits
 * (`Effect.succeed`, a `Storage.use` on a free connection). Composed with these helpers they stay
 * Exits, so the request path answers them without starting a fiber (the runtime's own fast path);
 * an effect that does wait is composed the ordinary way. Profiling showed the fiber per request
 * costing more than a GET's own work.
 */
import { Effect, Exit } from "effect"

/** Already completed with a value. */
export const isDone = <A, E, R>(self: Effect.Effect<A, E, R>): self is Exit.Success<A, E> =>
  Exit.isExit(self) && Exit.isSuccess(self)

export const mapNow = <A, E, R, B>(self: Effect.Effect<A, E, R>, f: (a: A) => B): Effect.Effect<B, E, R> =>
  isDone(self) ? Exit.succeed(f(self.value)) : Effect.map(self, f)

export const flatMapNow = <A, E, R, B, E2, R2>(
  self: Effect.Effect<A, E, R>,
  f: (a: A) => Effect.Effect<B, E2, R2>
): Effect.Effect<B, E | E2, R | R2> => (isDone(self) ? f(self.value) : Effect.flatMap(self, f))
