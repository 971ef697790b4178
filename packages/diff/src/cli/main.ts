/**
 * The `oracle` CLI. Exit codes: 0 no divergence, 1 divergences, 2 the oracle could not run — a
 * pin that cannot be obtained, a launcher that failed, a cassette missing a request, a bad flag.
 */
import type { FileSystem as FileSystemService, Path } from "@effect/platform"
import { FileSystem } from "@effect/platform"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { guardInterrupts } from "@hermetic/oracle-runner"
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

const schemaCommand = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  yield* fs.writeFileString(join(schemaDir(), "evidence.schema.json"), `${JSON.stringify(evidenceJsonSchema(), null, 2)}\n`)
  yield* fs.writeFileString(join(schemaDir(), "cassette.schema.json"), `${JSON.stringify(cassetteJsonSchema(), null, 2)}\n`)
  process.stdout.write(`wrote ${schemaDir()}evidence.schema.json and cassette.schema.json\n`)
  return 0 as const
})

const HELP: Record<string, string> = { wire: WIRE_HELP, compare: COMPARE_HELP, record: RECORD_HELP, replay: REPLAY_HELP, merge: MERGE_HELP, report: REPORT_HELP }

/** What every command may use: its scope, and the Node file system and paths (provided once, below). */
type CliServices = Scope.Scope | FileSystemService.FileSystem | Path.Path

const program = (argv: ReadonlyArray<string>): Effect.Effect<number, unknown, CliServices> =>
  Effect.suspend((): Effect.Effect<number, unknown, CliServices> => {
    // the fuzz mode parses its own flags (packages/diff/src/fuzz)
    if (argv[0] === "fuzz") return Effect.promise(() => fuzzCommand(argv.slice(1)))
    const args = parse(argv)
    const command = args.positionals[0]
    if (command === undefined || (args.values.help === true && HELP[command] === undefined)) {
      process.stdout.write(MAIN_HELP)
      return Effect.succeed(command === undefined && args.values.help !== true ? 2 : 0)
    }
    if (args.values.help === true) {
      process.stdout.write(HELP[command] ?? MAIN_HELP)
      return Effect.succeed(0)
    }
    switch (command) {
      case "compare":
        return compareCommand(args)
      case "record":
        return recordCommand(args)
      case "replay":
        return replayCommand(args)
      case "merge":
        return mergeCommand(args)
      case "report":
        return reportCommand(args)
      case "schema":
        return schemaCommand
      case "bench":
        return benchCommand(args)
      case "wire":
        return wireCommand(args)
      default:
        throw new UsageError({ message: `unknown command ${command}` })
    }
  })

/** From src/cli or dist/cli alike, the package's manifest is two levels up. */
const packageVersion = (): string =>
  (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version

/** The exit code of a run that failed: 2, never 0 or 1 — a comparison that did not happen is neither a pass nor a divergence. */
const report = (failure: unknown): number => {
  const message = failure instanceof Error ? failure.message : String(failure)
  if (failure instanceof UsageError) process.stderr.write(`oracle: ${message}\nRun 'oracle --help' for usage.\n`)
  else process.stderr.write(`oracle: the oracle could not run:\n${message}\n`)
  return 2
}

const argv = process.argv.slice(2)
const main: Effect.Effect<number, unknown> =
  argv[0] === "--version" || argv[0] === "-v"
    ? Effect.sync(() => {
      process.stdout.write(`oracle ${packageVersion()}\n`)
      return 0
    })
    : Effect.scoped(program(argv)).pipe(
      Effect.provide(NodeContext.layer),
      Effect.catchAllCause((cause) => (Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.sync(() => report(Cause.squash(cause)))))
    )

// @effect/platform-node's runtime: SIGINT/SIGTERM interrupt the comparison and its scope (gateways, emulators) closes;
// the guard keeps execa's signal-exit from killing the process first (interruptGuard.ts)
guardInterrupts()
tolerateClosedPipes()
NodeRuntime.runMain(main, {
  teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) ? Number(exit.value) : Cause.isInterruptedOnly(exit.cause) ? 130 : 2)
})
