/**
 * The emulator's control plane under /__admin (upstream has no such prefix). Five routes are the
 * contract in @hermetic/script's ControlPlane (script, hold release, clock, restart, reset), with
 * its request and answer shapes; the rest (faults, holds, journal, drain, state, cron tick) are
 * the emulator's own.
 */
import { Effect, Either, Schema } from "effect"
import { EmulatorConfig } from "../config/EmulatorConfig.js"
import { type EmuRequest, type EmuResponse, jsonResponse } from "../http/Exchange.js"
import type { AppServices } from "../http/Route.js"
import { Gateways } from "../runs/GatewayState.js"
import { clearSettled, countSettled } from "../runs/SettledRuns.js"
import {
  ADMIN_PREFIX,
  adminError as adminErrorBody,
  ClockCommand,
  type ClockMoved,
  type HoldReleased,
  holdReleaseName,
  type ResetDone,
  type Restarted,
  Script,
  type ScriptAppended
} from "@hermetic/script"
import { Agent } from "../services/Agent.js"
import { EmuClock } from "../services/Clock.js"
import { FaultRule, Faults } from "../services/Faults.js"
import { Journal } from "../services/Journal.js"
import { clearNamespace } from "../services/Storage.js"
import { tickNamespace } from "../jobs/JobTicker.js"
import { handleJournalAdmin } from "./JournalAdmin.js"
import { handleSnapshotAdmin } from "./SnapshotAdmin.js"

export { ADMIN_PREFIX, isAdminPath } from "@hermetic/script"

const adminError = (status: number, message: string): EmuResponse => jsonResponse(adminErrorBody(message), status)

const DrainCommand = Schema.Struct({ draining: Schema.Boolean })

const parseBody = <A, I>(schema: Schema.Schema<A, I>, req: EmuRequest): Either.Either<A, string> => {
  let json: unknown
  try {
    json = req.body.byteLength === 0 ? {} : JSON.parse(new TextDecoder().decode(req.body))
  } catch {
    return Either.left("body is not JSON")
  }
  return Either.mapLeft(Schema.decodeUnknownEither(schema)(json), (e) => e.message)
}

/** Restart as a process restart would: live runs end, memory is dropped, storage stays. */
export const restartNamespace = (namespace: string) =>
  Effect.flatMap(Gateways, (g) => g.restart(namespace)).pipe(Effect.zipRight(clearSettled(namespace)), Effect.asVoid)

/** Forget everything of a namespace: memory, storage, script, holds, clock, faults. */
export const resetNamespace = (namespace: string) =>
  Effect.gen(function*() {
    yield* restartNamespace(namespace)
    // "always" approvals live in config.yaml upstream: a reset is a fresh HERMES_HOME
    yield* Effect.flatMap(Gateways, (g) => Effect.sync(() => g.get(namespace).permanentApprovals.clear()))
    yield* clearNamespace(namespace)
    yield* Effect.flatMap(Agent, (a) => a.reset(namespace))
    yield* Effect.flatMap(EmuClock, (c) => c.reset(namespace))
    yield* Effect.flatMap(Faults, (f) => f.clear(namespace))
    yield* Effect.flatMap(Journal, (j) => j.clear(namespace))
  }).pipe(Effect.orDie)

export const handleAdmin = (req: EmuRequest, ns: string): Effect.Effect<EmuResponse, never, AppServices> =>
  Effect.gen(function*() {
    const config = yield* EmulatorConfig
    if (config.adminKey !== undefined) {
      const given = req.headers["x-hermetic-admin-key"] ?? (req.headers["authorization"] ?? "").replace(/^Bearer /, "")
      if (given !== config.adminKey) return adminError(401, "admin key required (x-hermetic-admin-key)")
    }
    const path = req.path.slice(ADMIN_PREFIX.length)
    const route = `${req.method} ${path}`
    const player = (yield* Agent).player(ns)
    const hold = holdReleaseName(path)
    if (req.method === "POST" && hold !== undefined) {
      const released: HoldReleased = { hold, releasedCalls: yield* player.release(hold) }
      return jsonResponse(released)
    }
    switch (route) {
      case "POST /script": {
        const script = parseBody(Script, req)
        if (Either.isLeft(script)) return adminError(400, `invalid Script: ${script.left}`)
        const pending = yield* Effect.either(player.append(script.right))
        if (Either.isLeft(pending)) return adminError(400, pending.left.message)
        const appended: ScriptAppended = { appended: script.right.turns.length, pendingTurns: pending.right }
        return jsonResponse(appended)
      }
      case "POST /clock": {
        const cmd = parseBody(ClockCommand, req)
        if (Either.isLeft(cmd)) return adminError(400, `expected {"set": s} | {"advance": s} | {"freeze": bool}: ${cmd.left}`)
        const clock = yield* EmuClock
        const c = cmd.right
        if ("set" in c) yield* clock.set(ns, c.set)
        else if ("advance" in c) yield* clock.advance(ns, c.advance)
        else yield* clock.freeze(ns, c.freeze)
        const moved: ClockMoved = { now: clock.now(ns) }
        return jsonResponse(moved)
      }
      case "POST /restart":
        yield* restartNamespace(ns)
        return jsonResponse({ restarted: true } satisfies Restarted)
      case "POST /reset":
        yield* resetNamespace(ns)
        return jsonResponse({ reset: true } satisfies ResetDone)
      case "POST /cron/tick":
        // the cron scheduler's tick, now (it also runs by itself every 60 s)
        return jsonResponse({ fired: yield* tickNamespace(ns) })
      case "POST /faults": {
        const rule = parseBody(FaultRule, req)
        if (Either.isLeft(rule)) return adminError(400, `invalid fault: ${rule.left}`)
        yield* Effect.flatMap(Faults, (f) => f.add(ns, rule.right))
        return jsonResponse({ armed: rule.right })
      }
      case "DELETE /faults":
        yield* Effect.flatMap(Faults, (f) => f.clear(ns))
        return jsonResponse({ cleared: true })
      case "GET /faults":
        return jsonResponse({ faults: yield* Effect.flatMap(Faults, (f) => f.list(ns)) })
      case "GET /holds":
        return jsonResponse({ waiting: (yield* player.view).heldCalls })
      case "GET /journal":
      case "POST /journal":
      case "DELETE /journal":
        return (yield* handleJournalAdmin(req, ns, parseBody, adminError)) ?? adminError(405, route)
      case "POST /snapshot":
        return yield* handleSnapshotAdmin(req, ns, parseBody, adminError)
      case "POST /drain": {
        const cmd = parseBody(DrainCommand, req)
        if (Either.isLeft(cmd)) return adminError(400, `expected {"draining": bool}: ${cmd.left}`)
        const gw = (yield* Gateways).get(ns)
        gw.draining = cmd.right.draining
        return jsonResponse({ draining: gw.draining })
      }
      case "GET /state": {
        const gw = (yield* Gateways).get(ns)
        return jsonResponse({
          namespace: ns,
          hermes_version: config.pin,
          pending_turns: (yield* player.view).pendingTurns,
          runs: gw.runStatuses.size + (yield* countSettled(ns)),
          live_runs: gw.liveRuns.size,
          draining: gw.draining,
          now: (yield* EmuClock).now(ns)
        })
      }
      default:
        return adminError(404, `unknown admin route: ${route}`)
    }
  })
