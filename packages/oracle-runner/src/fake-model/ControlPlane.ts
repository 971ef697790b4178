/**
 * The fake model's control plane: the contract of @hermetic/script's ControlPlane (the same routes,
 * bodies and answers as the emulator's), plus its own read-outs.
 *
 *   POST /__admin/script               append a Script's turns                 → ScriptAppended
 *   POST /__admin/holds/{name}/release release a held reply                    → HoldReleased
 *   POST /__admin/clock                set/advance the gateway's faketime clock → ClockMoved
 *   POST /__admin/restart              restart the gateway process             → Restarted
 *   POST /__admin/reset                forget Script, holds and journal        → ResetDone
 *   GET  /__admin/holds                holds a call waits on                   → {"waiting": [...]}
 *   GET  /__admin/journal              every request received
 *   GET  /__admin/model-calls          the calls answered, messages as sent → ReceivedCalls
 *   GET  /__admin/state                queue position and waiting holds
 *
 * There is one namespace (the gateway's): `x-hermetic-namespace` is ignored. Clock and restart need
 * the gateway the oracle runner attached; without one they answer 409.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import {
  ADMIN_PREFIX,
  adminError,
  ClockCommand,
  type ClockMoved,
  guardControlPlane,
  type HoldReleased,
  type ReceivedCalls,
  holdReleaseName,
  type ResetDone,
  type Restarted,
  Script,
  type ScriptAppended
} from "@hermetic/script"
import { Effect, Either, Schema } from "effect"
import type { FakeModelState } from "./FakeModelState.js"
import { pathOf } from "./paths.js"
import { readJsonBody } from "./RequestBody.js"

const ok = (body: unknown) => HttpServerResponse.unsafeJson(body)
const refuse = (status: number, message: string) => HttpServerResponse.unsafeJson(adminError(message), { status })

/** The body decoded by a contract schema, or the reason it is not one. */
const decodeBody = <A, I>(schema: Schema.Schema<A, I>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.map(readJsonBody(request, {}), (body) => {
      if (!body.ok) return Either.left(body.reason)
      return Either.mapLeft(Schema.decodeUnknownEither(schema)(body.value), (e) => e.message)
    }))

export const controlPlane = (state: FakeModelState) => {
  const { player } = state
  const post = (path: string) =>
    Effect.gen(function*() {
      const hold = holdReleaseName(path)
      if (hold !== undefined) {
        const released: HoldReleased = { hold, releasedCalls: yield* player.release(hold) }
        return ok(released)
      }
      switch (path) {
        case "/script": {
          const script = yield* decodeBody(Script)
          if (Either.isLeft(script)) return refuse(400, `invalid Script: ${script.left}`)
          const pending = yield* Effect.either(player.append(script.right))
          if (Either.isLeft(pending)) return refuse(400, pending.left.message)
          const appended: ScriptAppended = { appended: script.right.turns.length, pendingTurns: pending.right }
          return ok(appended)
        }
        case "/clock": {
          const command = yield* decodeBody(ClockCommand)
          if (Either.isLeft(command)) return refuse(400, `expected {"set": s} | {"advance": s} | {"freeze": bool}: ${command.left}`)
          const clock = state.gateway().clock
          if (clock === undefined) return refuse(409, "no gateway clock: the gateway behind this fake model was not started under libfaketime")
          const c = command.right
          if ("freeze" in c) return refuse(400, "the real gateway's clock cannot be frozen (libfaketime offsets only): use set or advance")
          const moving = yield* Effect.either("set" in c ? clock.set(c.set) : clock.advance(c.advance))
          if (Either.isLeft(moving)) return refuse(500, `the gateway clock did not move: ${moving.left.message}`)
          const moved: ClockMoved = { now: clock.now() }
          return ok(moved)
        }
        case "/restart": {
          const restart = state.gateway().restart
          if (restart === undefined) return refuse(409, "no gateway attached to this fake model")
          const restarting = yield* Effect.either(restart)
          if (Either.isLeft(restarting)) return refuse(500, `the gateway did not restart: ${restarting.left.message}`)
          return ok({ restarted: true } satisfies Restarted)
        }
        case "/reset":
          yield* state.reset
          return ok({ reset: true } satisfies ResetDone)
        default:
          return refuse(404, `unknown admin route: POST ${path}`)
      }
    })
  const get = (path: string) =>
    Effect.gen(function*() {
      switch (path) {
        case "/holds":
          return ok({ waiting: (yield* player.view).heldCalls })
        case "/journal":
          return ok({ entries: state.journal.list() })
        case "/state":
          return ok(yield* player.view)
        case "/model-calls": {
          const calls: ReceivedCalls = { calls: yield* player.received }
          return ok(calls)
        }
        default:
          return refuse(404, `unknown admin route: GET ${path}`)
      }
    })
  return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    // the same guard as the emulator's plane; the fake model has no key of its own
    const verdict = guardControlPlane({ requiredKey: undefined }, { method: request.method, headers: request.headers })
    if (verdict._tag === "refused") return Effect.succeed(refuse(verdict.status, verdict.message))
    const path = pathOf(request).slice(ADMIN_PREFIX.length)
    if (request.method === "POST") return post(path)
    if (request.method === "GET") return get(path)
    return Effect.succeed(refuse(404, `unknown admin route: ${request.method} ${path}`))
  })
}
