/**
 * Flag parsing for the oracle-runner CLI: node:util parseArgs, one option table per command,
 * strict (an unknown flag or a stray argument is a usage error, exit 2). `--faketime` takes an
 * optional value (`--faketime` alone means "from now"), which parseArgs cannot express: a bare
 * `--faketime` is rewritten to `--faketime=now` first.
 */
import { Data } from "effect"
import { parseArgs } from "node:util"

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
  up: { ...common, ...gateway, faketime: { type: "string" }, determinism: { type: "string" }, tools: { type: "boolean" } },
  down: { ...common },
  probe: { ...common, ...gateway, out: { type: "string" } }
} as const

export type Command = keyof typeof COMMAND_OPTIONS
export const isCommand = (s: string): s is Command => Object.hasOwn(COMMAND_OPTIONS, s)

/** The parsed flags of one command. */
export type Values<C extends Command> = ReturnType<typeof parseArgs<{ options: (typeof COMMAND_OPTIONS)[C]; strict: true }>>["values"]

export const parseCommand = <C extends Command>(command: C, argv: ReadonlyArray<string>): Values<C> => {
  const args = argv.map((a) => (a === "--faketime" ? "--faketime=now" : a))
  try {
    return parseArgs({ args, options: COMMAND_OPTIONS[command], strict: true, allowPositionals: false }).values as Values<C>
  } catch (e) {
    throw new UsageError({ message: `${command}: ${e instanceof Error ? e.message : String(e)}` })
  }
}

/** A flag whose value must be one of `choices`. */
export const oneOf = <T extends string>(flag: string, value: string | undefined, choices: ReadonlyArray<T>, fallback: T): T => {
  if (value === undefined) return fallback
  if ((choices as ReadonlyArray<string>).includes(value)) return value as T
  throw new UsageError({ message: `--${flag} is ${choices.join(" or ")}, not ${value}` })
}

/** A positive number of seconds, as milliseconds. */
export const secondsFlag = (flag: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0)) throw new UsageError({ message: `--${flag} wants a positive number of seconds, got ${value}` })
  return n * 1000
}
