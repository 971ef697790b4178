/**
 * GET /v1/runs/{run_id}/events: the run's SSE buffer, read once. Upstream waits up to 1 s
 * (20 × 50 ms) for the buffer to appear, streams unnamed `data:` frames, sends a keepalive comment
 * after 30 s of silence, ends with ": stream closed", and then forgets the buffer: a second
 * subscriber gets 404.
 */
import { Duration, Effect, Stream } from "effect"
import { runNotFound } from "../../http/Envelopes.js"
import { sseResponse } from "../../http/Exchange.js"
import type { Handler, RouteContext } from "../../http/Route.js"
import type { ProcessRuns, RunStream } from "./ProcessRuns.js"
import { runsIn, type RunsServices } from "./Runs.js"
import { STREAM_CLOSED_FRAME, dataFrame } from "./RunEvents.js"
import { keepaliveFrames } from "../../http/SseKeepalive.js"
import { sweepRunsIfDue } from "./RunLookup.js"

/** The run's events until it ends; a client gone interrupts the stream (EmuBody in http/Exchange.ts) and unsubscribes it. */
const frames = (runs: ProcessRuns, runId: string, stream: RunStream): Stream.Stream<string> =>
  keepaliveFrames(stream.queue, dataFrame, STREAM_CLOSED_FRAME).pipe(Stream.ensuring(Effect.sync(() => runs.unsubscribe(runId))))

export const runEvents: Handler<RunsServices> = (ctx) => Effect.gen(() => subscribeToEvents(ctx))

function* subscribeToEvents(ctx: RouteContext<RunsServices>) {
  const runId = ctx.params["run_id"] ?? ""
  const runs = runsIn(ctx)
  let stream: RunStream | undefined
  for (let attempt = 0; attempt < 20; attempt++) {
    const swept = sweepRunsIfDue(ctx)
    if (swept !== undefined) yield* swept
    stream = runs.subscribe(runId)
    if (stream !== undefined) break
    yield* Effect.sleep(Duration.millis(50))
  }
  if (stream === undefined) return runNotFound(runId)
  return sseResponse(frames(runs, runId, stream))
}
