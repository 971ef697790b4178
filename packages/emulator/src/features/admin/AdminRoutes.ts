/**
 * The control plane's rows of the one route table (RouteTable.ts composes them after upstream's
 * routes): hermetic's own commands under /__admin, which no gateway has. They live beside their
 * handlers so the table of upstream's routes holds only upstream's.
 */
import type { AdminRoute } from "../../http/Route.js"
import { appendScript } from "./AppendScript.js"
import { armFault } from "./ArmFault.js"
import { clearFaults } from "./ClearFaults.js"
import { clearJournal } from "./ClearJournal.js"
import { configureJournal } from "./ConfigureJournal.js"
import { cronTick } from "./CronTick.js"
import { drain } from "./Drain.js"
import { listFaults } from "./ListFaults.js"
import { listHolds } from "./ListHolds.js"
import { listModelCalls } from "./ListModelCalls.js"
import { moveClock } from "./MoveClock.js"
import { namespaceState } from "./NamespaceState.js"
import { queryJournal } from "./QueryJournal.js"
import { releaseHold } from "./ReleaseHold.js"
import { resetNamespace } from "./ResetNamespace.js"
import { restartNamespace } from "./RestartNamespace.js"
import { snapshotCommand } from "./SnapshotAdmin.js"

/**
 * The control plane, the same for every pin. The first five are @hermetic/script's contract
 * (ControlPlane.ts), the rest the emulator's own. Matched on the raw path and never under
 * /p/{profile}; every path under the prefix passes the guard first, whether a command matches or not.
 */
export const CONTROL_PLANE_ROUTES = [
  { id: "admin.script", method: "POST", path: "/__admin/script", auth: "admin", handler: appendScript },
  { id: "admin.holds.release", method: "POST", path: "/__admin/holds/{name}/release", auth: "admin", handler: releaseHold },
  { id: "admin.clock", method: "POST", path: "/__admin/clock", auth: "admin", handler: moveClock },
  { id: "admin.restart", method: "POST", path: "/__admin/restart", auth: "admin", handler: restartNamespace },
  { id: "admin.reset", method: "POST", path: "/__admin/reset", auth: "admin", handler: resetNamespace },
  { id: "admin.cron.tick", method: "POST", path: "/__admin/cron/tick", auth: "admin", handler: cronTick },
  { id: "admin.faults.arm", method: "POST", path: "/__admin/faults", auth: "admin", handler: armFault },
  { id: "admin.faults.clear", method: "DELETE", path: "/__admin/faults", auth: "admin", handler: clearFaults },
  { id: "admin.faults.list", method: "GET", path: "/__admin/faults", auth: "admin", handler: listFaults },
  { id: "admin.holds.list", method: "GET", path: "/__admin/holds", auth: "admin", handler: listHolds },
  { id: "admin.modelCalls.list", method: "GET", path: "/__admin/model-calls", auth: "admin", handler: listModelCalls },
  { id: "admin.journal.query", method: "GET", path: "/__admin/journal", auth: "admin", handler: queryJournal },
  { id: "admin.journal.configure", method: "POST", path: "/__admin/journal", auth: "admin", handler: configureJournal },
  { id: "admin.journal.clear", method: "DELETE", path: "/__admin/journal", auth: "admin", handler: clearJournal },
  { id: "admin.snapshot", method: "POST", path: "/__admin/snapshot", auth: "admin", handler: snapshotCommand },
  { id: "admin.drain", method: "POST", path: "/__admin/drain", auth: "admin", handler: drain },
  { id: "admin.state", method: "GET", path: "/__admin/state", auth: "admin", handler: namespaceState }
] as const satisfies ReadonlyArray<AdminRoute<unknown>>
