/**
 * Flag parsing for the oracle-runner CLI: node:util parseArgs, one option table per command,
 * strict (an unknown flag or a stray argument is a usage error, exit 2). `--faketime` takes an
 * optional value (`--faketime` alone means "from now"), which parseArgs cannot express: a bare
 * `--faketime` is rewritten to `--faketime=now` first.
 */
import { Data, Effect } from "effect"
import { parseArgs } from "node:util"
import { closest } from "@hermetic/script"

export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

const common = { help: { type: "boolean", short: "h" } } as const
const gateway = {
  pin: { type: "string" },
  launcher: { type: "string" },
  source: { type: "string" },
  "keep-temp": { type: "boolean" },
  "ready-timeout": { type: "string" }
} as const

export const COMMAND_OPTIONS = {
  doctor: { ...common, source: { type: "string" }, fix: { type: "boolean" } },
  up: { ...common, ...gateway, faketime: { type: "string" }, determinism: { type: "string" }, tools: { type: "boolean" }, "cors-origins": { type: "string" } },
  down: { ...common },
  probe: { ...common, ...gateway, out: { type: "string" } }
} as const

export type Command = keyof typeof COMMAND_OPTIONS
export const isCommand = (s: string): s is Command => Object.hasOwn(COMMAND_OPTIONS, s)

/** The parsed flags of one command. */
export type Values<C extends Command> = ReturnType<typeof parseArgs<{ options: (typeof COMMAND_OPTIONS)[C]; strict: true }>>["values"]

/** An option the command does not take: the ones it takes, and the closest as "did you mean". */
const unknownOption = (command: Command, rawName: string): UsageError => {
  const own = Object.keys(COMMAND_OPTIONS[command])
  const near = closest(rawName.replace(/^-+/, ""), own)
  return new UsageError({
    message: `${command}: ${rawName} is not an option of ${command}${near !== undefined ? `; did you mean --${near}?` : ""}\n${command} takes ${own.map((o) => `--${o}`).join(", ")}`
  })
}

export const parseCommand = <C extends Command>(command: C, argv: ReadonlyArray<string>): Effect.Effect<Values<C>, UsageError> => {
  const args = argv.map((a) => (a === "--faketime" ? "--faketime=now" : a))
  const options = COMMAND_OPTIONS[command]
  // a lenient pass first, so an unknown option gets its own message
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true })
  const unknown = tokens.find((t) => t.kind === "option" && !Object.hasOwn(options, t.name))
  if (unknown?.kind === "option") return Effect.fail(unknownOption(command, unknown.rawName))
  return Effect.try({
    try: () => parseArgs({ args, options, strict: true, allowPositionals: false }).values as Values<C>,
    catch: (e) => new UsageError({ message: `${command}: ${e instanceof Error ? e.message : String(e)}` })
  })
}

/** A flag whose value must be one of `choices`. */
export const oneOf = <T extends string>(flag: string, value: string | undefined, choices: ReadonlyArray<T>, fallback: T): Effect.Effect<T, UsageError> => {
  if (value === undefined) return Effect.succeed(fallback)
  if ((choices as ReadonlyArray<string>).includes(value)) return Effect.succeed(value as T)
  return Effect.fail(new UsageError({ message: `--${flag} is ${choices.join(" or ")}, not ${value}` }))
}

/** A positive number of seconds, as milliseconds. */
export const secondsFlag = (flag: string, value: string | undefined): Effect.Effect<number | undefined, UsageError> => {
  if (value === undefined) return Effect.succeed(undefined)
  const n = Number(value)
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0)) return Effect.fail(new UsageError({ message: `--${flag} wants a positive number of seconds, got ${value}` }))
  return Effect.succeed(n * 1000)
}
