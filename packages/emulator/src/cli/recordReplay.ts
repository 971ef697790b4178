/**
 * `hermes-emulator record` and `hermes-emulator replay`: the CLI faces of record/Recorder.ts and
 * record/Replayer.ts. Both run until SIGINT/SIGTERM; the recorder writes what is in flight first.
 */
import { parseArgs } from "node:util"
import { startRecorder } from "../record/Recorder.js"
import { startReplayer } from "../record/Replayer.js"

export const RECORD_HELP = `Usage:
  hermes-emulator record --upstream URL --out DIR [--host HOST] [--port PORT]
      Proxy your application's traffic to your own Hermes gateway at URL and record every
      exchange (event streams with their timing) into DIR. Authorization and keys are redacted.
      Point your application at the printed URL instead of the gateway.
  hermes-emulator replay DIR [--host HOST] [--port PORT] [--speed F]
      Serve a recording: the same request (operation, path, body) gets the recorded answer;
      an unrecorded one gets 501 hermetic_replay_miss saying what is missing. --speed scales
      recorded delays (1 as recorded, the default; 0 no waiting).
`

const fail = (message: string): never => {
  process.stderr.write(`hermes-emulator: ${message}\n${RECORD_HELP}`)
  process.exit(2)
}

const portOf = (value: string | undefined): number => {
  if (value === undefined) return 8642
  const port = Number(value)
  return Number.isInteger(port) && port >= 0 && port <= 65535 ? port : fail(`invalid --port '${value}'`)
}

const untilSignal = (close: () => Promise<void>) => {
  const stop = () => void close().then(() => process.exit(0), () => process.exit(1))
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}

const log = (line: string) => void process.stderr.write(`${line}\n`)

export const recordCommand = async (args: ReadonlyArray<string>) => {
  const { values } = parseArgs({
    args: [...args],
    options: { upstream: { type: "string" }, out: { type: "string" }, host: { type: "string" }, port: { type: "string" }, help: { type: "boolean", short: "h" } }
  })
  if (values.help === true) return void process.stdout.write(RECORD_HELP)
  const upstream = values.upstream ?? fail("record needs --upstream URL (your Hermes gateway)")
  const out = values.out ?? fail("record needs --out DIR")
  const recorder = await startRecorder({ upstream, out, ...(values.host === undefined ? {} : { host: values.host }), port: portOf(values.port), log })
  process.stdout.write(
    `hermes-emulator: recording ${recorder.manifest.upstream} (Hermes ${recorder.manifest.hermesVersion ?? "version unknown"}) into ${out}; ` +
      `point your application at ${recorder.url}\n`
  )
  untilSignal(recorder.close)
}

export const replayCommand = async (args: ReadonlyArray<string>) => {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { host: { type: "string" }, port: { type: "string" }, speed: { type: "string" }, help: { type: "boolean", short: "h" } }
  })
  if (values.help === true) return void process.stdout.write(RECORD_HELP)
  const dir = positionals[0] ?? fail("replay needs the recording DIR")
  const speed = values.speed === undefined ? 1 : Number(values.speed)
  if (!Number.isFinite(speed) || speed < 0) fail(`invalid --speed '${values.speed}'`)
  const replayer = await startReplayer({ dir, ...(values.host === undefined ? {} : { host: values.host }), port: portOf(values.port), speed, log })
  process.stdout.write(`hermes-emulator: replaying ${replayer.recording.exchanges.length} exchanges from ${dir} on ${replayer.url}\n`)
  untilSignal(replayer.close)
}
