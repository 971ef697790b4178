/**
 * oracle-runner CLI: doctor | up | down | probe. Exit codes: 0 ok, 1 usage or other error,
 * 2 the oracle cannot run here (pin not obtainable, lock mismatch, missing tool, gateway did not start).
 */
import { GatewayStartFailed, LockMismatch, MissingTool, PinUnavailable } from "../errors.js"
import { parseArgs, UsageError } from "./args.js"
import { doctorCommand } from "./doctorCommand.js"
import { downCommand } from "./downCommand.js"
import { probeCommand, PROBE_FLAGS } from "./probeCommand.js"
import { upCommand } from "./upCommand.js"

const HELP = `oracle-runner — start the real pinned Hermes gateway, disposably, with a scripted fake model

usage: npm run oracle-runner -- <command> [options]

commands
  doctor [--source DIR] [--fix]
                             per pin and launcher: obtainable here or not, and why; python, venv,
                             lock, container engine, faketime: what works and what to install.
                             --fix first installs what it can: faketime (apt-get) and the default
                             pin's venv from PyPI
  up [options]               start gateway + fake model; print HERMES_BASE_URL=, API_SERVER_KEY=,
                             FAKE_MODEL_URL= lines once /health answers; stay up until SIGINT/SIGTERM
  down                       stop what 'up' started (uses the state file; works if 'up' was killed)
  probe [options] --out FILE record raw exchanges with the real gateway as Markdown evidence

up/probe options
  --pin 0.19.0|0.21.0        a pin of source-lock.json (default: its "default", 0.19.0)
  --launcher process|container
                             process: venv under ~/.cache/hermetic (built on first use, ~30 s)
                             container: local image built from Debian + the pin's wheels; needs an
                             engine (scripts/container-engine.sh up)
  --source DIR               checkout to install editable (required for 0.21.0, which is not on PyPI)
  --faketime[=EPOCH|ISO]     run the gateway under libfaketime (from that instant; default now)
  --determinism strict|upstream-defaults
                             strict (default): no tools, memory, titles, compression, review
  --keep-temp                keep HERMES_HOME and the log after stopping
  --ready-timeout SECONDS    how long to wait for /health (default 120)

The fake model's control plane (the emulator's contract): POST $FAKE_MODEL_URL/__admin/script
(a Script), .../holds/NAME/release, .../clock (with --faketime), .../restart, .../reset;
GET .../holds, .../journal, .../state.

exit codes: 0 ok; 1 usage or unexpected error; 2 the oracle cannot run here (the message says why
and what would be needed — a pin is never silently replaced by another)`

const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  const [cmd, ...rest] = argv
  switch (cmd) {
    case "doctor":
      return doctorCommand(parseArgs(rest, ["fix"]))
    case "up":
      return upCommand(parseArgs(rest, ["keep-temp", "faketime"]))
    case "down":
      return downCommand()
    case "probe":
      return probeCommand(parseArgs(rest, ["keep-temp", "faketime"]), PROBE_FLAGS)
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(`${HELP}\n`)
      return cmd === undefined ? 1 : 0
    default:
      throw new UsageError(`unknown command ${cmd}`)
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError) {
      process.stderr.write(`oracle-runner: ${e.message}\n\nrun with --help for usage\n`)
      process.exit(1)
    }
    if (e instanceof PinUnavailable || e instanceof LockMismatch || e instanceof MissingTool || e instanceof GatewayStartFailed) {
      process.stderr.write(`oracle-runner: ${e.message}\n`)
      process.exit(2)
    }
    process.stderr.write(`oracle-runner: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  }
)
