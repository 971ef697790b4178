/**
 * The `oracle` commands and their options, as data: each option names the commands it belongs to,
 * so adding one is one line. A command parses only its own options (node:util parseArgs over the
 * command's slice of the table); an option it does not take is a usage error that lists the ones it
 * does, with the closest as "did you mean".
 */
import { readFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { closest } from "@hermetic/script"
import { Effect } from "effect"
import { isPinName } from "../coverage/emulatorRoutes.js"
import { GATEWAY_PROFILES, type GatewayProfile, isGatewayProfile } from "../profile/GatewayProfile.js"
import { sourceLockPath } from "../evidence/sourceLockPath.js"
import { UsageError } from "./CliError.js"

export const COMMANDS = ["compare", "record", "replay", "merge", "report", "wire", "fuzz", "schema", "bench"] as const
export type CommandName = (typeof COMMANDS)[number]
export const isCommandName = (s: string): s is CommandName => (COMMANDS as ReadonlyArray<string>).includes(s)

const ALL = COMMANDS
/** Commands that write REPORT.md into `--out` (and so refuse an existing one without --force). */
const WRITES_REPORT = ["compare", "replay", "merge"] as const

export const OPTIONS = {
  pin: { type: "string", commands: ["compare", "record", "replay", "bench", "wire", "fuzz"] },
  target: { type: "string", commands: ["compare", "record", "replay", "bench"] },
  runs: { type: "string", commands: ["compare", "record", "bench"] },
  seed: { type: "string", commands: ["compare", "record", "bench", "fuzz"] },
  generate: { type: "string", commands: ["record"] },
  scenario: { type: "string", multiple: true, commands: ["compare", "record", "bench", "wire"] },
  out: { type: "string", commands: ["compare", "record", "replay", "merge", "report", "bench", "wire", "fuzz"] },
  register: { type: "string", commands: ["compare"] },
  source: { type: "string", commands: ["compare", "record", "replay", "bench"] },
  profile: { type: "string", commands: ["compare", "record", "replay"] },
  "no-noise": { type: "boolean", commands: ["compare"] },
  fresh: { type: "boolean", commands: ["compare"] },
  shared: { type: "boolean", commands: ["compare", "record"] },
  candidate: { type: "string", commands: ["compare"] },
  "no-shrink": { type: "boolean", commands: ["compare"] },
  workers: { type: "string", commands: ["compare", "bench"] },
  shard: { type: "string", commands: ["compare"] },
  pick: { type: "string", commands: ["compare"] },
  html: { type: "string", commands: ["report"] },
  base: { type: "string", commands: ["report"] },
  head: { type: "string", commands: ["report"] },
  count: { type: "string", commands: ["fuzz"] },
  reference: { type: "string", commands: ["fuzz"] },
  "in-process": { type: "boolean", commands: ["fuzz"] },
  "live-check": { type: "boolean", commands: ["fuzz"] },
  "upload-probes": { type: "boolean", commands: ["fuzz"] },
  "connection-probes": { type: "boolean", commands: ["wire"] },
  json: { type: "boolean", commands: ["compare", "replay", "merge", "report", "fuzz", "bench"] },
  force: { type: "boolean", commands: WRITES_REPORT },
  help: { type: "boolean", short: "h", commands: ALL }
} as const satisfies Record<string, { readonly type: "string" | "boolean"; readonly multiple?: boolean; readonly short?: string; readonly commands: ReadonlyArray<CommandName> }>

export type OptionName = keyof typeof OPTIONS

/** How many positional arguments a command takes (after its name). */
export const POSITIONALS: Readonly<Record<CommandName, { readonly min: number; readonly max: number; readonly what: string }>> = {
  compare: { min: 0, max: 0, what: "" },
  record: { min: 0, max: 0, what: "" },
  replay: { min: 1, max: 1, what: "FILE" },
  merge: { min: 1, max: Infinity, what: "DIR|FILE …" },
  report: { min: 0, max: 0, what: "" },
  wire: { min: 0, max: 0, what: "" },
  fuzz: { min: 0, max: 0, what: "" },
  schema: { min: 0, max: 0, what: "" },
  bench: { min: 0, max: 0, what: "" }
}

/** The options of one command, in table order. */
export const optionsOf = (command: CommandName): ReadonlyArray<OptionName> =>
  (Object.keys(OPTIONS) as Array<OptionName>).filter((name) => (OPTIONS[name].commands as ReadonlyArray<string>).includes(command))

/** parseArgs' view of the whole table (every value optional): what a command reads from. */
type ParseConfig = { [K in OptionName]: { type: (typeof OPTIONS)[K]["type"]; multiple: (typeof OPTIONS)[K] extends { multiple: true } ? true : false } }
type Values = ReturnType<typeof parseArgs<{ options: ParseConfig; strict: true; allowPositionals: true }>>["values"]

export interface ParsedArgs {
  readonly command: CommandName
  /** The arguments after the command's name. */
  readonly positionals: ReadonlyArray<string>
  readonly values: Values
}

const configOf = (names: ReadonlyArray<OptionName>) =>
  Object.fromEntries(
    names.map((name) => {
      const o: { readonly type: "string" | "boolean"; readonly multiple?: boolean; readonly short?: string } = OPTIONS[name]
      return [name, { type: o.type, ...(o.multiple === true ? { multiple: true } : {}), ...(o.short !== undefined ? { short: o.short } : {}) }]
    })
  )

/** "a, b or c" */
const orList = (xs: ReadonlyArray<string>) => (xs.length < 2 ? xs.join("") : `${xs.slice(0, -1).join(", ")} or ${xs.at(-1) ?? ""}`)

const listed = (names: ReadonlyArray<string>) => names.map((n) => `--${n}`).join(", ")

/** What is wrong with an option `command` does not take: whether it belongs elsewhere, the closest it does take, and all it takes. */
const unknownOption = (command: CommandName, raw: string): UsageError => {
  const name = raw.replace(/^-+/, "")
  const own = optionsOf(command)
  const elsewhere = (OPTIONS as Record<string, { readonly commands: ReadonlyArray<string> }>)[name]?.commands
  const near = closest(name, own)
  return new UsageError({
    command,
    message:
      `${command}: ${raw} is not an option of ${command}` +
      (elsewhere !== undefined ? ` (it belongs to ${elsewhere.join(", ")})` : "") +
      (near !== undefined ? `; did you mean --${near}?` : "") +
      `\n${command} takes ${listed(own)}`
  })
}

/** The command's arguments, checked against its own options and positional count. */
export const parseCommand = (command: CommandName, argv: ReadonlyArray<string>): Effect.Effect<ParsedArgs, UsageError> =>
  Effect.suspend(() => {
    const own = optionsOf(command)
    // a lenient pass names every option given, so an unknown one gets its own message
    const { tokens } = parseArgs({ args: [...argv], options: configOf(own), strict: false, allowPositionals: true, tokens: true })
    for (const token of tokens) {
      if (token.kind === "option" && !(own as ReadonlyArray<string>).includes(token.name)) return Effect.fail(unknownOption(command, token.rawName))
    }
    return Effect.try({
      try: () => parseArgs({ args: [...argv], options: configOf(own), strict: true, allowPositionals: true }),
      catch: (e) => new UsageError({ command, message: `${command}: ${e instanceof Error ? e.message : String(e)}` })
    }).pipe(
      Effect.flatMap((parsed) => {
        const { positionals } = parsed
        const values = parsed.values as Values
        const want = POSITIONALS[command]
        if (values.help === true) return Effect.succeed({ command, positionals, values })
        if (positionals.length < want.min) return Effect.fail(new UsageError({ command, message: `${command} needs ${want.what}` }))
        if (positionals.length > want.max) {
          return Effect.fail(new UsageError({ command, message: `${command}: unexpected argument ${positionals[want.max] ?? ""}${want.max === 0 ? ` (${command} takes options only: ${listed(own)})` : ""}` }))
        }
        return Effect.succeed({ command, positionals, values })
      })
    )
  })

/** An unknown command, with the closest one. */
export const unknownCommand = (name: string): UsageError => {
  const near = closest(name, COMMANDS)
  return new UsageError({ message: `unknown command ${name}${near !== undefined ? `; did you mean ${near}?` : ""}\ncommands: ${COMMANDS.join(", ")}` })
}

export const defaultPin = (): string => {
  try {
    return (JSON.parse(readFileSync(sourceLockPath(), "utf8")) as { default: string }).default
  } catch {
    return "0.19.0"
  }
}

/** The pin both sides run; the emulator must have a profile for it. */
export const pinOf = (args: ParsedArgs): Effect.Effect<"0.19.0" | "0.21.0", UsageError> => {
  const pin = args.values.pin ?? defaultPin()
  return isPinName(pin) ? Effect.succeed(pin) : Effect.fail(new UsageError({ command: args.command, message: `--pin ${pin}: the emulator has profiles for 0.19.0 and 0.21.0 only` }))
}

/** The gateway profile both sides run (`--profile`, default strict). */
export const profileOf = (args: ParsedArgs): Effect.Effect<GatewayProfile, UsageError> => {
  const profile = args.values.profile ?? "strict"
  return isGatewayProfile(profile) ? Effect.succeed(profile) : Effect.fail(new UsageError({ command: args.command, message: `--profile is ${GATEWAY_PROFILES.join(" or ")}, not ${profile}` }))
}

/** A flag whose value must be one of `choices`. */
export const oneOf = <T extends string>(args: ParsedArgs, flag: "target" | "candidate", choices: ReadonlyArray<T>, fallback: T): Effect.Effect<T, UsageError> => {
  const value = args.values[flag]
  if (value === undefined) return Effect.succeed(fallback)
  if ((choices as ReadonlyArray<string>).includes(value)) return Effect.succeed(value as T)
  const near = closest(value, choices)
  return Effect.fail(new UsageError({ command: args.command, message: `--${flag} is ${orList(choices)}, not ${value}${near !== undefined ? `; did you mean ${near}?` : ""}` }))
}

export const intFlag = (args: ParsedArgs, name: "runs" | "seed" | "workers" | "count" | "generate", fallback: number): Effect.Effect<number, UsageError> => {
  const raw = args.values[name]
  if (raw === undefined) return Effect.succeed(fallback)
  return /^-?\d+$/.test(raw) ? Effect.succeed(Number(raw)) : Effect.fail(new UsageError({ command: args.command, message: `--${name} wants an integer, got ${raw}` }))
}
