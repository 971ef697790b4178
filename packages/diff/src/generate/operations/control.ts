/**
 * Time and process: clock jumps across the 1 h run-status and 24 h ledger boundaries (with a 10 s
 * margin, since real seconds pass while a scenario plays), restarts and crashes. Only taken when
 * no model reply is held: a jump would fire the held call's timeouts on the real gateway.
 */
import * as fc from "fast-check"
import { type GenModel, RUN_STATUS_TTL } from "../GenModel.js"
import { command, type OperationCommands } from "./Operation.js"

/** No held reply (a jump would fire its call's timeouts) and no live cron job (a jump would fire it: a turn nobody scripted). */
const quiet = (m: Readonly<GenModel>) => !m.runs.some((r) => r.phase === "held" || r.phase === "stopping") && m.jobs.every((j) => j.deleted)

export const controlOperation: OperationCommands = {
  id: "control",
  requiresRoutes: [],
  commands: () => [
    fc.constantFrom(60, RUN_STATUS_TTL - 10, RUN_STATUS_TTL + 10, 86_400 + 10).map((seconds) =>
      command(`clockAdvance(${seconds})`, quiet, (m, b) => {
        b.add({ clock: { advance: seconds } })
        m.clock += seconds
        for (const r of m.runs) {
          r.clockMoved = true
          if (r.phase === "terminal" && m.clock - r.settledAt > RUN_STATUS_TTL) r.phase = "gone"
        }
      })
    ),
    fc.boolean().map((crash) =>
      command(crash ? "crash" : "restart", quiet, (m, b) => {
        b.add({ restart: crash ? { crash: true } : {} })
        m.warmth = "cold"
        // runs live in the gateway's memory; with a ledger, keyed runs are kept in storage
        for (const r of m.runs) if (!(m.features.runsIdempotencyLedger && [...m.keys.values()].some((k) => k.alias === r.alias))) r.phase = "gone"
      })
    )
  ]
}
