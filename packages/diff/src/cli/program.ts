/**
 * The `oracle` CLI as one Effect: the command's exit code, or a CliError (exit 2). Each command
 * parses its own options (args.ts) and hands back its result (OracleDocument.ts); this prints it,
 * as text or, with --json, as one JSON document on stdout.
 */
import type { FileSystem as FileSystemService, Path } from "@effect/platform"
import { FileSystem } from "@effect/platform"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Schema, type Scope } from "effect"
import { cassetteJsonSchema, evidenceJsonSchema, schemaDir } from "../evidence/evidenceJsonSchema.js"
import { fuzzCommand } from "../fuzz/fuzzCommand.js"
import { wireCommand } from "../wire/wireCommand.js"
import { type CommandName, COMMANDS, isCommandName, type ParsedArgs, parseCommand, unknownCommand } from "./args.js"
import { benchCommand } from "./benchCommand.js"
import { type CliError, toCliError, UsageError } from "./CliError.js"
import { compareCommand } from "./compareCommand.js"
import { mergeCommand } from "./mergeCommand.js"
import { type CommandResult, OracleDocument } from "./OracleDocument.js"
import { recordCommand } from "./recordCommand.js"
import { replayCommand } from "./replayCommand.js"
import { reportCommand } from "./reportCommand.js"
import { BENCH_HELP, COMPARE_HELP, FUZZ_HELP, MAIN_HELP, MERGE_HELP, RECORD_HELP, REPLAY_HELP, REPORT_HELP, SCHEMA_HELP, WIRE_HELP } from "./usage.js"

/** What every command may use: its scope, and the Node file system and paths (provided once, in main.ts). */
export type CliServices = Scope.Scope | FileSystemService.FileSystem | Path.Path

export const HELP: Readonly<Record<CommandName, string>> = {
  compare: COMPARE_HELP,
  record: RECORD_HELP,
  replay: REPLAY_HELP,
  merge: MERGE_HELP,
  report: REPORT_HELP,
  wire: WIRE_HELP,
  fuzz: FUZZ_HELP,
  schema: SCHEMA_HELP,
  bench: BENCH_HELP
}

const schemaCommand = (_args: ParsedArgs) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    yield* fs.writeFileString(join(schemaDir(), "evidence.schema.json"), `${JSON.stringify(evidenceJsonSchema(), null, 2)}\n`)
    yield* fs.writeFileString(join(schemaDir(), "cassette.schema.json"), `${JSON.stringify(cassetteJsonSchema(), null, 2)}\n`)
    return { exitCode: 0, text: `wrote ${schemaDir()}evidence.schema.json and cassette.schema.json\n` } satisfies CommandResult
  })

// each command's own error types end here, as CliErrors
const RUN: Readonly<Record<CommandName, (args: ParsedArgs) => Effect.Effect<CommandResult, unknown, CliServices>>> = {
  compare: compareCommand,
  record: recordCommand,
  replay: replayCommand,
  merge: mergeCommand,
  report: reportCommand,
  wire: wireCommand,
  fuzz: fuzzCommand,
  schema: schemaCommand,
  bench: benchCommand
}

/** From src/cli or dist/cli alike, the package's manifest is two levels up. */
export const packageVersion = (): string =>
  (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version

const print = (text: string) => Effect.sync(() => void process.stdout.write(text))

const output = (args: ParsedArgs, result: CommandResult) =>
  args.values.json === true && result.document !== undefined
    ? print(`${JSON.stringify(Schema.encodeSync(OracleDocument)(result.document))}\n`)
    : print(result.text)

export const program = (argv: ReadonlyArray<string>): Effect.Effect<number, CliError, CliServices> =>
  Effect.gen(function*() {
    const [first, ...rest] = argv
    if (first === "--version" || first === "-v") {
      yield* print(`oracle ${packageVersion()}\n`)
      return 0
    }
    if (first === "--help" || first === "-h" || first === "help") {
      yield* print(MAIN_HELP)
      return 0
    }
    if (first === undefined) return yield* new UsageError({ message: `which command? ${COMMANDS.join(", ")}` })
    if (!isCommandName(first)) return yield* unknownCommand(first)
    const args = yield* parseCommand(first, rest)
    if (args.values.help === true) {
      yield* print(HELP[first])
      return 0
    }
    const result = yield* RUN[first](args).pipe(Effect.mapError(toCliError))
    yield* output(args, result)
    return result.exitCode
  })

/** A failure's report on stderr; always exit 2. */
export const reportFailure = (failure: CliError): string =>
  failure._tag === "UsageError"
    ? `oracle: ${failure.message}\nRun 'oracle ${failure.command !== undefined ? `${failure.command} ` : ""}--help' for usage.\n`
    : failure._tag === "ReportExists"
      ? `oracle: ${failure.message}\n`
      : `oracle: the oracle could not run:\n${failure.message}\n`
