/**
 * The emulator's scheduler: like the real gateway's ticker thread it wakes every 60 s (wall time)
 * and ticks every namespace. Due-ness follows each namespace's own clock, so a clock moved through
 * the admin plane takes effect at the next tick; `POST /__admin/cron/tick` ticks at once.
 */
import { Duration, Effect } from "effect"
import { tickAll, TICK_SECONDS } from "./JobTicker.js"

export const jobTicker = Effect.forever(
  Effect.sleep(Duration.seconds(TICK_SECONDS)).pipe(Effect.zipRight(tickAll.pipe(Effect.catchAllCause(() => Effect.void))))
)
