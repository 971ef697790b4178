/**
 * The `oracle` bin. Exit codes: 0 no divergence, 1 divergences, 2 the oracle could not run — a
 * pin that cannot be obtained, a launcher that failed, a cassette missing a request, a bad flag.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Exit } from "effect"
import { program, reportFailure } from "./program.js"
import { tolerateClosedPipes } from "./closedPipes.js"

const main: Effect.Effect<number> = Effect.scoped(program(process.argv.slice(2))).pipe(
  Effect.provide(NodeContext.layer),
  Effect.catchAll((failure) => Effect.sync(() => (process.stderr.write(reportFailure(failure)), 2))),
  // a defect is a bug, but still not a pass: reported, exit 2
  Effect.catchAllCause((cause) =>
    Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.sync(() => (process.stderr.write(`oracle: the oracle could not run:\n${Cause.pretty(cause)}\n`), 2))
  )
)

// @effect/platform-node's runtime: SIGINT/SIGTERM interrupt the comparison and its scope (gateways, emulators) closes;
// loading the oracle runner (a live target) adds its guard, which keeps execa's signal-exit from killing the process first
tolerateClosedPipes()
NodeRuntime.runMain(main, {
  teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) ? Number(exit.value) : Cause.isInterruptedOnly(exit.cause) ? 130 : 2)
})
