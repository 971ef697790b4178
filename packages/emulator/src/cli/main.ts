/**
 * `hermes-emulator serve`: the emulator on a port, like `hermes gateway run` with only the API
 * server. Hermes' own variables (API_SERVER_KEY, _HOST, _PORT, _MODEL_NAME, _CORS_ORIGINS) apply
 * unless a flag overrides them.
 */
import { parseArgs } from "node:util"
import { startEmulator } from "../Emulator.js"
import { isPin, PINS } from "../version/Pins.js"
import { recordCommand, replayCommand } from "./recordReplay.js"

const HELP = `hermes-emulator — a deterministic emulator of the Hermes Agent API server

Usage:
  hermes-emulator serve [options]
  hermes-emulator record --upstream URL --out DIR     record your app's traffic to your gateway
  hermes-emulator replay DIR                          serve a recording (record --help for more)

Options:
  --host HOST               bind address (default: $API_SERVER_HOST or 127.0.0.1)
  --port PORT               port, 0 for any free one (default: $API_SERVER_PORT or 8642)
  --data-dir DIR            keep state in DIR/hermetic-emulator.db; a restart with the same DIR
                            is a real restart (default: in memory)
  --memory                  keep all state in memory (the default without --data-dir)
  --hermes-version V        the Hermes release to emulate: ${PINS.join(" | ")} (default: 0.21.0)
  --api-key KEY             bearer key, >= 16 characters (default: $API_SERVER_KEY; none means no
                            auth, allowed on a loopback host only)
  --model-name NAME         advertised model (default: $API_SERVER_MODEL_NAME or hermes-agent)
  --cors-origins LIST       comma-separated allowed browser origins (default: $API_SERVER_CORS_ORIGINS)
  --max-concurrent-runs N   gateway.api_server.max_concurrent_runs (default: 10; 0 disables)
  --admin-key KEY           require this key on /__admin (default: $HERMETIC_ADMIN_KEY, else the
                            API key; none: loopback JSON requests only)
  --snapshot FILE           start from a snapshot (POST /__admin/snapshot {"action":"save"} writes one)
  --journal-bodies          the journal keeps request bodies and model calls (redacted, bounded)
  -h, --help                this help

Control plane: POST /__admin/script, /__admin/holds/{name}/release, /__admin/clock,
/__admin/restart, /__admin/reset (namespace by the x-hermetic-namespace header).
`

const fail = (message: string): never => {
  process.stderr.write(`hermes-emulator: ${message}\nRun 'hermes-emulator --help' for usage.\n`)
  process.exit(2)
}

const main = async () => {
  const command = process.argv[2]
  if (command === "record") return recordCommand(process.argv.slice(3))
  if (command === "replay") return replayCommand(process.argv.slice(3))
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
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
      help: { type: "boolean", short: "h" }
    }
  })
  if (values.help === true || positionals.length === 0) {
    process.stdout.write(HELP)
    process.exit(values.help === true ? 0 : 2)
  }
  if (positionals[0] !== "serve") fail(`unknown command '${positionals[0]}'`)
  const version = values["hermes-version"]
  if (version !== undefined && !isPin(version)) fail(`unknown --hermes-version '${version}' (known: ${PINS.join(", ")})`)
  const port = values.port === undefined ? undefined : Number(values.port)
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) fail(`invalid --port '${values.port}'`)
  const maxRuns = values["max-concurrent-runs"]
  if (maxRuns !== undefined && !/^-?\d+$/.test(maxRuns)) fail(`invalid --max-concurrent-runs '${maxRuns}'`)

  const started = performance.now()
  const env = process.env
  const dataDir = values["data-dir"]
  const emulator = await startEmulator(
    {
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
    },
    { env }
  )
  const c = emulator.config
  if (c.apiKey === "") {
    process.stderr.write(
      "hermes-emulator: warning: no API key set, every request is accepted without auth. " +
        "Set API_SERVER_KEY (>= 16 characters) or pass --api-key to require 'Authorization: Bearer <key>'.\n"
    )
  }
  process.stdout.write(
    `hermes-emulator: Hermes ${c.pin} API server listening on ${emulator.url} (model: ${c.modelName}; ` +
      `state: ${c.sqliteFilename === ":memory:" ? "in memory" : c.sqliteFilename}; ` +
      `ready in ${Math.round(performance.now() - started)} ms)\n`
  )
  const stop = () => {
    emulator.close().then(() => process.exit(0), () => process.exit(1))
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}

main().catch((e: unknown) => {
  const err = e as NodeJS.ErrnoException
  if (err.code === "EADDRINUSE") fail(`port already in use (${err.message}); pick another with --port`)
  fail(err.message ?? String(e))
})
