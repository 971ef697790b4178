/**
 * The `oracle` bin. Exit codes: 0 no divergence, 1 divergences, 2 the oracle could not run — a
 * pin that cannot be obtained, a launcher that failed, a cassette missing a request, a bad flag.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { guardInterrupts } from "@hermetic/oracle-runner"
<<<<<<< HEAD
import { Cause, Effect, Exit } from "effect"
import { program, reportFailure } from "./program.js"
=======
import { Cause, Effect, Exit, type Scope } from "effect"
import { cassetteJsonSchema, evidenceJsonSchema, schemaDir } from "../evidence/evidenceJsonSchema.js"
import { parse } from "./args.js"
import { UsageError } from "./CliError.js"
import { tolerateClosedPipes } from "./closedPipes.js"
import { benchCommand } from "./benchCommand.js"
import { compareCommand } from "./compareCommand.js"
import { fuzzCommand } from "../fuzz/fuzzCommand.js"
import { wireCommand } from "../wire/wireCommand.js"
import { mergeCommand } from "./mergeCommand.js"
import { recordCommand } from "./recordCommand.js"
import { replayCommand } from "./replayCommand.js"
import { reportCommand } from "./reportCommand.js"
import { COMPARE_HELP, MAIN_HELP, MERGE_HELP, RECORD_HELP, REPLAY_HELP, REPORT_HELP, WIRE_HELP } from "./usage.js"
>>>>>>> fresh

const main: Effect.Effect<number> = Effect.scoped(program(process.argv.slice(2))).pipe(
  Effect.provide(NodeContext.layer),
  Effect.catchAll((failure) => Effect.sync(() => (process.stderr.write(reportFailure(failure)), 2))),
  // a defect is a bug, but still not a pass: reported, exit 2
  Effect.catchAllCause((cause) =>
    Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.sync(() => (process.stderr.write(`oracle: the oracle could not run:\n${Cause.pretty(cause)}\n`), 2))
  )
)

// @effect/platform-node's runtime: SIGINT/SIGTERM interrupt the comparison and its scope (gateways, emulators) closes;
// the guard keeps execa's signal-exit from killing the process first (interruptGuard.ts)
guardInterrupts()
tolerateClosedPipes()
NodeRuntime.runMain(main, {
  teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) ? Number(exit.value) : Cause.isInterruptedOnly(exit.cause) ? 130 : 2)
})
