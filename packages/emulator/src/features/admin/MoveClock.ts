/** POST /__admin/clock: the namespace's clocks set, advanced or frozen (@hermetic/script's ClockCommand). */
import { Effect, Either } from "effect"
import { ClockCommand, type ClockMoved } from "@hermetic/script"
import { adminError } from "../../http/AdminGate.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminContext, AdminHandler } from "../../http/Route.js"
import { EmuClock } from "../../services/Clock.js"
import { Gateways } from "../../services/GatewayProcess.js"
import { tickIfDue } from "../jobs/JobTicker.js"
import { parseAdminBody } from "./AdminBody.js"

export const moveClock: AdminHandler = (ctx) => Effect.gen(() => move(ctx))

function* move(ctx: AdminContext) {
  const ns = ctx.namespace
  const cmd = parseAdminBody(ClockCommand, ctx.req.body)
  if (Either.isLeft(cmd)) return adminError(400, `expected {"set": s} | {"advance": s} | {"freeze": bool}: ${cmd.left}`)
  const clock = yield* EmuClock
  const c = cmd.right
  // the process runs before its clock moves: its timers were armed on the clock as it was
  ;(yield* Gateways).get(ns)
  if ("set" in c) yield* clock.set(ns, c.set)
  else if ("advance" in c) yield* clock.advance(ns, c.advance)
  else yield* clock.freeze(ns, c.freeze)
  // a jump past the cron ticker's next tick ends its wait at once
  if (!("freeze" in c)) yield* tickIfDue(ns)
  const moved: ClockMoved = { now: clock.now(ns) }
  return jsonResponse(moved)
}
