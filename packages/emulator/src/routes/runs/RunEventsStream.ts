/**
 * GET /v1/runs/{run_id}/events: the run's SSE buffer, read once. Upstream waits up to 1 s
 * (20 × 50 ms) for the buffer to appear, streams unnamed `data:` frames, sends a keepalive comment
 * after 30 s of silence, ends with ": stream closed", and then forgets the buffer: a second
 * subscriber gets 404.
 */
import { Duration, Effect, Option, Queue, Stream } from "effect"
import { runNotFound } from "../../http/Envelopes.js"
import { sseResponse } from "../../http/Exchange.js"
import type { Handler } from "../../http/Route.js"
import type { GatewayState, RunStream } from "../../runs/GatewayState.js"
import { KEEPALIVE_FRAME, STREAM_CLOSED_FRAME, dataFrame } from "../../runs/RunEvents.js"
import { sweepIfDue } from "../../runs/Sweep.js"

const KEEPALIVE_AFTER = Duration.seconds(30)

const frames = (gw: GatewayState, runId: string, stream: RunStream, aborted: Promise<void>): Stream.Stream<string> =>
  Stream.unfoldEffect(false, (closed) =>
    closed
      ? Effect.succeed(Option.none())
      : Queue.take(stream.queue).pipe(
          Effect.timeoutOption(KEEPALIVE_AFTER),
          Effect.map((next) =>
            Option.match(next, {
              onNone: () => Option.some([KEEPALIVE_FRAME, false] as const),
              onSome: (event) =>
                event === null
                  ? Option.some([STREAM_CLOSED_FRAME, true] as const)
                  : Option.some([dataFrame(event), false] as const)
            })
          )
        )
  ).pipe(
    Stream.interruptWhen(Effect.promise(() => aborted)),
    Stream.ensuring(
      Effect.sync(() => {
        gw.streamSubscribers.delete(runId)
        if (gw.runStreams.get(runId) === stream) gw.runStreams.delete(runId)
      })
    )
  )

export const runEvents: Handler = (ctx) =>
  Effect.gen(function*() {
    const runId = ctx.params["run_id"] ?? ""
    const gw = ctx.gateway
    let stream: RunStream | undefined
    for (let attempt = 0; attempt < 20; attempt++) {
      sweepIfDue(gw, ctx.now())
      stream = gw.runStreams.get(runId)
      if (stream !== undefined) break
      yield* Effect.sleep(Duration.millis(50))
    }
    if (stream === undefined) return runNotFound(runId)
    gw.streamSubscribers.add(runId)
    return sseResponse(frames(gw, runId, stream, ctx.req.aborted))
  })
