/**
 * Every SSE writer of the API server (chat completions, responses, run events, session chat)
 * writes `: keepalive` after 30 s without a frame (`CHAT_COMPLETIONS_SSE_KEEPALIVE_SECONDS`, or
 * `asyncio.wait_for(q.get(), timeout=30.0)`). One definition here for the four.
 */
import { Duration, Effect, Option, Queue, Stream } from "effect"

export const KEEPALIVE_AFTER = Duration.seconds(30)
export const KEEPALIVE_FRAME = ": keepalive\n\n"

/**
 * The frames of a queue that ends with `null`: each item rendered, a keepalive after
 * KEEPALIVE_AFTER without an item, and `closing` (when given) as the last frame.
 */
export const keepaliveFrames = <A>(queue: Queue.Dequeue<A | null>, render: (item: A) => string, closing?: string): Stream.Stream<string> =>
  Stream.unfoldEffect(false, (closed) =>
    closed
      ? Effect.succeed(Option.none())
      : Queue.take(queue).pipe(
        Effect.timeoutOption(KEEPALIVE_AFTER),
        Effect.map((next) =>
          Option.match(next, {
            onNone: () => Option.some([KEEPALIVE_FRAME, false] as const),
            onSome: (item) =>
              item !== null
                ? Option.some([render(item), false] as const)
                : closing === undefined
                ? Option.none()
                : Option.some([closing, true] as const)
          })
        )
      ))
