/**
 * `hermes-emulator record` and `hermes-emulator replay`: the CLI faces of record/Recorder.ts and
 * record/Replayer.ts. Both run until interrupted (SIGINT/SIGTERM through the Node runtime); the
 * recorder writes what is in flight as its scope closes.
 */
import { Effect } from "effect"
import { parseArgs, type ParseArgsConfig } from "node:util"
import { startRecorder } from "../record/Recorder.js"
import { startReplayer } from "../record/Replayer.js"
import { startFailed, UsageError } from "./CliErrors.js"

export const RECORD_HELP = `Usage:
  hermes-emulator record --upstream URL --out DIR [--host HOST] [--port PORT] [--api-key KEY]
      Proxy your application's traffic to your own Hermes gateway at URL and record every
      exchange (event streams with their timing) into DIR. Authorization and keys are redacted.
      Point your application at the printed URL instead of the gateway.
  hermes-emulator replay DIR [--host HOST] [--port PORT] [--api-key KEY] [--speed F]
      Serve a recording: the same request (operation, path, body) gets the recorded answer;
      an unrecorded one gets 501 hermetic_replay_miss saying what is missing. --speed scales
      recorded delays (1 as recorded, the default; 0 no waiting).

  --host HOST     bind address (default: 127.0.0.1); a non-loopback host needs a key, as for serve
  --api-key KEY   require 'Authorization: Bearer KEY' (>= 16 characters) on every request, as serve
                  does (default: $API_SERVER_KEY; none: a loopback host only, unless
                  HERMETIC_ALLOW_NO_KEY=local-test). For record, the key your application sends.

Exit codes: 0 ok · 1 could not start (a refused host, an unreadable recording) · 2 usage error
`

const usage = (message: string) => new UsageError({ message, help: RECORD_HELP })

const parse = <const O extends ParseArgsConfig>(config: O) =>
  Effect.try({ try: () => parseArgs<O>(config), catch: (e) => usage(e instanceof Error ? e.message : String(e)) })

const portOf = (value: string | undefined) => {
  if (value === undefined) return Effect.succeed(8642)
  const port = Number(value)
  return Number.isInteger(port) && port >= 0 && port <= 65535 ? Effect.succeed(port) : Effect.fail(usage(`invalid --port '${value}'`))
}

/** The host, and the key as `serve` takes it (the flag, else API_SERVER_KEY), with the environment the start-up guard reads. */
const hostAndKey = (values: { readonly host?: string | undefined; readonly "api-key"?: string | undefined }) => {
  const apiKey = values["api-key"] ?? process.env["API_SERVER_KEY"]
  return { ...(values.host === undefined ? {} : { host: values.host }), ...(apiKey === undefined ? {} : { apiKey }), env: process.env }
}

const log = (line: string) => void process.stderr.write(`${line}\n`)

export const recordCommand = (args: ReadonlyArray<string>) => Effect.gen(() => recordTraffic(args))

function* recordTraffic(args: ReadonlyArray<string>) {
  const { values, positionals } = yield* parse({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: { upstream: { type: "string" }, out: { type: "string" }, host: { type: "string" }, port: { type: "string" }, "api-key": { type: "string" }, help: { type: "boolean", short: "h" } }
  })
  if (values.help === true) {
    process.stdout.write(RECORD_HELP)
    return 0
  }
  if (positionals.length > 0) return yield* usage(`record takes no arguments, got '${positionals.join(" ")}'`)
  const upstream = values.upstream ?? (yield* usage("record needs --upstream URL (your Hermes gateway)"))
  const out = values.out ?? (yield* usage("record needs --out DIR"))
  const port = yield* portOf(values.port)
  const recorder = yield* Effect.acquireRelease(
    Effect.tryPromise({ try: () => startRecorder({ upstream, out, ...hostAndKey(values), port, log }), catch: startFailed }),
    (r) => Effect.promise(() => r.close())
  )
  process.stdout.write(
    `hermes-emulator: recording ${recorder.manifest.upstream} (Hermes ${recorder.manifest.hermesVersion ?? "version unknown"}) into ${out}; ` +
      `point your application at ${recorder.url}\n`
  )
  return yield* Effect.never
}

export const replayCommand = (args: ReadonlyArray<string>) => Effect.gen(() => serveRecording(args))

function* serveRecording(args: ReadonlyArray<string>) {
  const { values, positionals } = yield* parse({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: { host: { type: "string" }, port: { type: "string" }, "api-key": { type: "string" }, speed: { type: "string" }, help: { type: "boolean", short: "h" } }
  })
  if (values.help === true) {
    process.stdout.write(RECORD_HELP)
    return 0
  }
  if (positionals.length !== 1) return yield* usage("replay needs exactly one recording DIR")
  const dir = positionals[0] ?? ""
  const speed = values.speed === undefined ? 1 : Number(values.speed)
  if (!Number.isFinite(speed) || speed < 0) return yield* usage(`invalid --speed '${values.speed}'`)
  const port = yield* portOf(values.port)
  const replayer = yield* Effect.acquireRelease(
    Effect.tryPromise({ try: () => startReplayer({ dir, ...hostAndKey(values), port, speed, log }), catch: startFailed }),
    (r) => Effect.promise(() => r.close())
  )
  process.stdout.write(`hermes-emulator: replaying ${replayer.recording.exchanges.length} exchanges from ${dir} on ${replayer.url}\n`)
  return yield* Effect.never
}
