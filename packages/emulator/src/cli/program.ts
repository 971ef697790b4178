/**
 * `hermes-emulator serve`: the emulator on a port, like `hermes gateway run` with only the API
 * server. Hermes' own variables (API_SERVER_KEY, _HOST, _PORT, _MODEL_NAME, _CORS_ORIGINS) apply
 * unless a flag overrides them. The server is a resource of the program's scope: it closes when
 * the program is interrupted (main.ts runs it on the Node runtime, which interrupts on
 * SIGINT/SIGTERM). Exit codes: 0 ok (and after a signal), 1 the server could not start, 2 usage errors.
 */
import { Effect } from "effect"
import { parseArgs } from "node:util"
import { startEmulator } from "../Emulator.js"
import { isPin, PINS } from "../version/Pins.js"
import { startFailed, UsageError } from "./CliErrors.js"
import { packageVersion } from "./packageVersion.js"
import { recordCommand, replayCommand } from "./recordReplay.js"

const HELP = `hermes-emulator — a deterministic emulator of the Hermes Agent API server

Usage:
  hermes-emulator serve [options]                  serve the API on a port until SIGINT/SIGTERM
  hermes-emulator record --upstream URL --out DIR  record your app's traffic to your gateway
  hermes-emulator replay DIR                       serve a recording (record --help for more)
  hermes-emulator --version                        print the version
  hermes-emulator [serve] --help                   this help

Options:
  --host HOST               bind address (default: $API_SERVER_HOST or 127.0.0.1)
  --port PORT               port, 0 for any free one (default: $API_SERVER_PORT or 8642)
  --data-dir DIR            keep state in DIR/hermetic-emulator.db; a restart with the same DIR
                            is a real restart (default: in memory); after an unclean stop the
                            file is checked (PRAGMA quick_check) and a damaged one stops the start
  --memory                  keep all state in memory (the default without --data-dir)
  --hermes-version V        the Hermes release to emulate: ${PINS.join(" | ")} (default: 0.21.0)
  --api-key KEY             bearer key, >= 16 characters (default: $API_SERVER_KEY; none means no
                            auth, allowed on a loopback host only)
  --model-name NAME         advertised model (default: $API_SERVER_MODEL_NAME or hermes-agent)
  --cors-origins LIST       comma-separated allowed browser origins (default: $API_SERVER_CORS_ORIGINS)
  --max-concurrent-runs N   gateway.api_server.max_concurrent_runs (default: 10; 0 disables)
  --admin-key KEY           require this key on /__admin (default: $HERMETIC_ADMIN_KEY, else the
                            API key; none: loopback JSON requests only)
  --snapshot FILE           start from a snapshot: the answer of POST /__admin/snapshot {"action":"save"}
                            saved as it is (curl -H 'content-type: application/json' -d '{"action":"save"}'
                            http://127.0.0.1:PORT/__admin/snapshot > FILE); the load call takes the same
  --journal-bodies          the journal keeps request bodies and model calls (redacted, bounded)
  -h, --help                this help
  -v, --version             the version

Environment: API_SERVER_KEY, API_SERVER_HOST, API_SERVER_PORT, API_SERVER_MODEL_NAME,
API_SERVER_CORS_ORIGINS (Hermes' own); HERMETIC_HERMES_VERSION (the pin, when --hermes-version is
not given); HERMETIC_ADMIN_KEY; HERMETIC_ALLOW_NO_KEY=local-test (a non-loopback host with no key,
for a local test only, e.g. in a container whose published port stays on this machine).

Control plane: POST /__admin/script, /__admin/holds/{name}/release, /__admin/clock,
/__admin/restart, /__admin/reset (namespace by the x-hermetic-namespace header).

Exit codes: 0 ok · 1 the server could not start · 2 usage error
`

const OPTIONS = {
  host: { type: "string" },
  port: { type: "string" },
  "data-dir": { type: "string" },
  memory: { type: "boolean" },
  "hermes-version": { type: "string" },
  "api-key": { type: "string" },
  "model-name": { type: "string" },
  "cors-origins": { type: "string" },
  "max-concurrent-runs": { type: "string" },
  "admin-key": { type: "string" },
  snapshot: { type: "string" },
  "journal-bodies": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" }
} as const

const parse = (argv: ReadonlyArray<string>) =>
  Effect.try({
    try: () => parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true }),
    catch: (e) => new UsageError({ message: e instanceof Error ? e.message : String(e) })
  })

type Values = Effect.Effect.Success<ReturnType<typeof parse>>["values"]

const serve = (values: Values) => Effect.gen(() => startAndServe(values))

function* startAndServe(values: Values) {
  const version = values["hermes-version"]
  if (version !== undefined && !isPin(version)) return yield* new UsageError({ message: `unknown --hermes-version '${version}' (known: ${PINS.join(", ")})` })
  const port = values.port === undefined ? undefined : Number(values.port)
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) return yield* new UsageError({ message: `invalid --port '${values.port}'` })
  const maxRuns = values["max-concurrent-runs"]
  if (maxRuns !== undefined && !/^-?\d+$/.test(maxRuns)) return yield* new UsageError({ message: `invalid --max-concurrent-runs '${maxRuns}'` })

  const started = performance.now()
  const env = process.env
  const dataDir = values["data-dir"]
  const options = {
    ...(version !== undefined && isPin(version) ? { hermesVersion: version } : {}),
    ...(values.host !== undefined ? { host: values.host } : env["API_SERVER_HOST"] ? { host: env["API_SERVER_HOST"] } : {}),
    port: port ?? Number(/^\d+$/.test(env["API_SERVER_PORT"] ?? "") ? env["API_SERVER_PORT"] : 8642),
    ...(dataDir !== undefined && values.memory !== true ? { dataDir } : { memory: true }),
    ...(values["api-key"] !== undefined ? { apiKey: values["api-key"] } : {}),
    ...(values["model-name"] !== undefined ? { modelName: values["model-name"] } : {}),
    ...(values["cors-origins"] !== undefined ? { corsOrigins: values["cors-origins"] } : {}),
    ...(maxRuns !== undefined ? { maxConcurrentRuns: Number(maxRuns) } : {}),
    ...(values["admin-key"] !== undefined ? { adminKey: values["admin-key"] } : {}),
    ...(values.snapshot !== undefined ? { snapshot: values.snapshot } : {}),
    ...(values["journal-bodies"] === true ? { journal: { bodies: true } } : {})
  }
  const emulator = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () => startEmulator(options, { env }),
      catch: startFailed
    }),
    (emu) => Effect.promise(() => emu.close())
  )
  const c = emulator.config
  if (c.apiKey === "") {
    process.stderr.write(
      "hermes-emulator: warning: no API key set, every request is accepted without auth. " +
        "This differs from Hermes on purpose: Hermes refuses to start without a key; the emulator allows it on a loopback host only, for local tests " +
        "(a non-loopback --host without a key is refused unless HERMETIC_ALLOW_NO_KEY=local-test says it is a local test). " +
        "Set API_SERVER_KEY (>= 16 characters) or pass --api-key to require 'Authorization: Bearer <key>'.\n"
    )
  }
  process.stdout.write(
    `hermes-emulator: Hermes ${c.pin} API server listening on ${emulator.url} (model: ${c.modelName}; ` +
      `state: ${c.sqliteFilename === ":memory:" ? "in memory" : c.sqliteFilename}; ` +
      `ready in ${Math.round(performance.now() - started)} ms)\n`
  )
  return yield* Effect.never
}

/** The whole CLI for `argv`: its exit code (`serve` runs until interrupted). */
export const program = (argv: ReadonlyArray<string>): Effect.Effect<number> =>
  Effect.gen(() => runCommand(argv)).pipe(
    Effect.scoped,
    Effect.catchTags({
      UsageError: (e) => Effect.sync(() => {
        process.stderr.write(`hermes-emulator: ${e.message}\n${e.help ?? "Run 'hermes-emulator --help' for usage.\n"}`)
        return 2
      }),
      StartFailed: (e) => Effect.sync(() => {
        process.stderr.write(`hermes-emulator: ${e.message}\n`)
        return 1
      })
    })
  )

function* runCommand(argv: ReadonlyArray<string>) {
  // record and replay have options of their own
  if (argv[0] === "record") return yield* recordCommand(argv.slice(1))
  if (argv[0] === "replay") return yield* replayCommand(argv.slice(1))
  const { values, positionals } = yield* parse(argv)
  if (values.version === true) {
    process.stdout.write(`hermes-emulator ${packageVersion("@hermetic/emulator", import.meta.url)}\n`)
    return 0
  }
  if (values.help === true) {
    process.stdout.write(HELP)
    return 0
  }
  if (positionals.length === 0) return yield* new UsageError({ message: "missing command (serve)" })
  if (positionals[0] !== "serve" || positionals.length > 1) return yield* new UsageError({ message: `unknown command '${positionals.join(" ")}'` })
  return yield* serve(values)
}
