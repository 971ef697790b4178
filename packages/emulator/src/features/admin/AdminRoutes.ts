/**
 * The emulator's control plane under /__admin (upstream has no such prefix). Five routes are the
 * contract in @hermetic/script's ControlPlane (script, hold release, clock, restart, reset), with
 * its request and answer shapes; the rest (faults, holds, journal, drain, state, cron tick) are
 * the emulator's own. Every request passes @hermetic/script's ControlPlaneGuard first; bad input is a 400, never the
 * catch-all 500.
 */
import { Effect, Either, Schema } from "effect"
import { EmulatorConfig } from "../../config/EmulatorConfig.js"
import { type BodyReader, type EmuRequest, type EmuRequestHead, type EmuResponse, jsonResponse, withRequestBody } from "../../http/Exchange.js"
import type { AppServices } from "../../http/Route.js"
import { Gateways } from "../../services/GatewayProcess.js"
import { runsOf } from "../runs/Runs.js"
import { countSettled } from "../runs/SettledRuns.js"
import { Namespace } from "../../namespace/Namespace.js"
import {
  ADMIN_PREFIX,
  adminError as adminErrorBody,
  ClockCommand,
  type ClockMoved,
  guardControlPlane,
  type HoldReleased,
  holdReleaseName,
  type ResetDone,
  type Restarted,
  Script,
  type ScriptAppended
} from "@hermetic/script"
import { Agent } from "../../services/Agent.js"
import { EmuClock } from "../../services/Clock.js"
import { activeApiRuns } from "../discovery/HealthReadiness.js"
import { FaultRule, Faults } from "../../services/Faults.js"
import { Journal } from "../../services/Journal.js"
import { Storage } from "../../services/Storage.js"
import { tickIfDue, tickNamespace } from "../jobs/JobTicker.js"
import { handleJournalAdmin } from "./JournalAdmin.js"
import { handleSnapshotAdmin } from "./SnapshotAdmin.js"
import { bodyLimitShortCircuit } from "../../http/Middleware.js"

export { ADMIN_PREFIX, isAdminPath } from "@hermetic/script"

const adminError = (status: number, message: string): EmuResponse => jsonResponse(adminErrorBody(message), status)

const storageWrites = Effect.flatMap(Storage, (storage) =>
  storage.use(() => (storage.statement("SELECT total_changes() AS n").get() as { readonly n: number }).n))

const DrainCommand = Schema.Struct({ draining: Schema.Boolean })

/** Deeper than any command needs; deep enough input would otherwise overflow the recursive decoders. */
const MAX_NESTING = 64

/** How deeply a JSON text nests, by its brackets (strings skipped); stops counting past `limit`. */
const nestingDepth = (text: string, limit: number): number => {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      depth++
      if (depth > max && (max = depth) > limit) return max
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return max
}

const parseBody = <A, I>(schema: Schema.Schema<A, I>, body: Uint8Array): Either.Either<A, string> => {
  let json: unknown
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(body)
    if (nestingDepth(text, MAX_NESTING) > MAX_NESTING) return Either.left(`body nests deeper than ${MAX_NESTING} levels`)
    json = body.byteLength === 0 ? {} : JSON.parse(text)
  } catch {
    return Either.left("body is not JSON")
  }
  return Either.mapLeft(Schema.decodeUnknownEither(schema)(json), (e) => e.message)
}

/** A hold release, whatever its name's escapes (holdReleaseName decodes them). */
const HOLD_RELEASE = /^\/holds\/[^/]+\/release$/

export const handleAdmin = (
  req: EmuRequestHead,
  readBody: BodyReader,
  ns: string
): Effect.Effect<EmuResponse, never, AppServices> => Effect.gen(() => adminRequest(req, readBody, ns))

function* adminRequest(req: EmuRequestHead, readBody: BodyReader, ns: string) {
  const config = yield* EmulatorConfig
  // the admin key, else the API key: a key set for the API protects the control plane too
  const requiredKey = config.adminKey ?? (config.apiKey === "" ? undefined : config.apiKey)
  const verdict = guardControlPlane({ requiredKey }, req)
  if (verdict._tag === "refused") return adminError(verdict.status, verdict.message)
  // a declared size over the limit is answered before any byte is awaited (as the API's body
  // limit does): waiting for a body that never comes held the connection until Node's 408
  const declared = bodyLimitShortCircuit(req)
  if (declared !== undefined) return declared
  const read = yield* readBody
  if (read.exceeded) return adminError(413, "control plane request body too large")
  const body = read.bytes
  const path = req.path.slice(ADMIN_PREFIX.length)
  const route = `${req.method} ${path}`
  const player = (yield* Agent).player(ns)
  const hold = holdReleaseName(path)
  if (req.method === "POST" && hold !== undefined) {
    const released: HoldReleased = { hold, releasedCalls: yield* player.release(hold) }
    return jsonResponse(released)
  }
  if (req.method === "POST" && HOLD_RELEASE.test(path)) return adminError(400, `malformed percent-escape in hold name: ${path}`)
  // the journal and snapshot planes take the request with its body
  const full: EmuRequest = withRequestBody(req, body)
  const parseFull = <A, I>(schema: Schema.Schema<A, I>, r: EmuRequest) => parseBody(schema, r.body)
  switch (route) {
    case "POST /script": {
      const script = parseBody(Script, body)
      if (Either.isLeft(script)) return adminError(400, `invalid Script: ${script.left}`)
      const pending = yield* Effect.either(player.append(script.right))
      if (Either.isLeft(pending)) return adminError(400, pending.left.message)
      const appended: ScriptAppended = { appended: script.right.turns.length, pendingTurns: pending.right }
      return jsonResponse(appended)
    }
    case "POST /clock": {
      const cmd = parseBody(ClockCommand, body)
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
    case "POST /restart":
      yield* Effect.flatMap(Namespace, (n) => n.restart(ns))
      return jsonResponse({ restarted: true } satisfies Restarted)
    case "POST /reset":
      yield* Effect.flatMap(Namespace, (n) => n.reset(ns))
      return jsonResponse({ reset: true } satisfies ResetDone)
    case "POST /cron/tick":
      // the cron scheduler's tick, now (it also runs by itself every 60 s)
      return jsonResponse({ fired: yield* tickNamespace(ns) })
    case "POST /faults": {
      const rule = parseBody(FaultRule, body)
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
      return (yield* handleJournalAdmin(full, ns, parseFull, adminError)) ?? adminError(405, route)
    case "POST /snapshot":
      return yield* handleSnapshotAdmin(full, ns, parseFull, adminError)
    case "POST /drain": {
      const cmd = parseBody(DrainCommand, body)
      if (Either.isLeft(cmd)) return adminError(400, `expected {"draining": bool}: ${cmd.left}`)
      const gw = (yield* Gateways).get(ns)
      gw.draining = cmd.right.draining
      // entering or leaving a drain writes the runtime status with the active work of that moment
      gw.persistedActiveAgents = activeApiRuns(gw)
      return jsonResponse({ draining: gw.draining })
    }
    case "GET /state": {
      const gw = (yield* Gateways).get(ns)
      return jsonResponse({
        namespace: ns,
        hermes_version: config.pin,
        pending_turns: (yield* player.view).pendingTurns,
        runs: runsOf(gw).statusCount + (yield* countSettled(ns)),
        live_runs: runsOf(gw).liveCount,
        draining: gw.draining,
        now: (yield* EmuClock).now(ns),
        // rows written to durable state since start, every namespace (SQLite's total_changes):
        // a probe that must change nothing checks this did not move
        writes: yield* storageWrites
      })
    }
    default:
      return adminError(404, `unknown admin route: ${route}`)
  }
}
