/**
 * The oracle-runner CLI as one Effect: doctor | up | down | probe. Exit codes: 0 ok, 1 unexpected
 * error, 2 usage errors and "the oracle cannot run here" (pin not obtainable, lock mismatch,
 * missing tool, gateway did not start). main.ts runs it on the Node runtime.
 */
import { NodeContext } from "@effect/platform-node"
import { Cause, Effect } from "effect"
import { readFileSync } from "node:fs"
import { isOracleError } from "../errors.js"
import { isCommand, parseCommand, UsageError, type Command } from "./args.js"
import { doctorCommand } from "./doctorCommand.js"
import { downCommand } from "./downCommand.js"
import { probeCommand } from "./probeCommand.js"
import { upCommand } from "./upCommand.js"

const GATEWAY_OPTIONS = `  --pin 0.19.0|0.21.0        a pin of source-lock.json (default: its "default", 0.19.0)
  --launcher process|container
                             process: venv under ~/.cache/hermetic (built on first use, ~30 s)
                             container: local image built from Debian + the pin's wheels; needs an
                             engine (scripts/container-engine.sh up)
  --source DIR               checkout to install editable (required for 0.21.0, which is not on PyPI)
  --keep-temp                keep HERMES_HOME and the log after stopping
  --ready-timeout SECONDS    how long to wait for /health (default 120)`

const EXIT_CODES = `exit codes: 0 ok; 1 unexpected error; 2 usage error, or the oracle cannot run here (the message
says why and what would be needed — a pin is never silently replaced by another)`

const MAIN_HELP = `oracle-runner — start the real pinned Hermes gateway, disposably, with a scripted fake model

usage: oracle-runner <command> [options]     (in the repo: npm run oracle-runner -- <command>)

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
  <command> --help           the options of one command
  --version                  the version

The fake model's control plane (the emulator's contract): POST $FAKE_MODEL_URL/__admin/script
(a Script), .../holds/NAME/release, .../clock (with --faketime), .../restart, .../reset;
GET .../holds, .../journal, .../state.

${EXIT_CODES}
`

const HELP: Record<Command, string> = {
  doctor: `usage: oracle-runner doctor [--source DIR] [--fix]

For each pin of source-lock.json and each launcher: obtainable here or not, and why; python, venv,
lock, container engine and faketime: what works and what to install. Downloads nothing but the
0.19.0 wheel (into the cache, digest-checked).

  --source DIR               a checkout of a pin that is not on PyPI, checked against the lock
  --fix                      first install what it can: faketime (apt-get) and the default pin's
                             venv from PyPI, then report on the machine as it now is

exit codes: 0 the default pin can run here; 2 it cannot (or a usage error)
`,
  up: `usage: oracle-runner up [options]

Start the gateway and its fake model; print HERMES_BASE_URL=, API_SERVER_KEY=, FAKE_MODEL_URL=,
HERMES_PIN=, HERMES_LOG= (and FAKETIME_NOW=) lines once /health answers; stay up until SIGINT,
SIGTERM or SIGHUP (or 'oracle-runner down'), then stop everything.

${GATEWAY_OPTIONS}
  --faketime[=EPOCH|ISO]     run the gateway under libfaketime (from that instant; default now)
  --determinism strict|upstream-defaults
                             strict (default): no tools, memory, titles, compression, review
  --tools                    the tools profile: todo, a terminal confined to the scratch dir, the
                             approval guard in manual mode (strict otherwise)
  --cors-origins LIST        browser origins the API server allows, comma-separated (* for any), set
                             as API_SERVER_CORS_ORIGINS (default: none, so any Origin gets 403)

${EXIT_CODES}
`,
  down: `usage: oracle-runner down

Stop what 'up' started, from its state file (~/.cache/hermetic/state/up.json or
$HERMETIC_STATE_FILE); also cleans up after an 'up' that was killed. Takes no options.

exit codes: 0 stopped (or nothing to stop); 2 usage error
`,
  probe: `usage: oracle-runner probe --out FILE [options]

Start the gateway, run the fixed probe tour, write the raw exchanges as Markdown evidence, stop.

  --out FILE                 where the evidence goes (required)
${GATEWAY_OPTIONS}

${EXIT_CODES}
`
}

/** From src/cli or dist/cli alike, the package's manifest is two levels up. */
const packageVersion = (): string =>
  (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version

const run = (command: Command, argv: ReadonlyArray<string>): Effect.Effect<number, unknown> =>
  Effect.suspend(() => {
    switch (command) {
      case "doctor":
        return Effect.provide(Effect.flatMap(parseCommand("doctor", argv), doctorCommand), NodeContext.layer)
      case "up":
        return Effect.flatMap(parseCommand("up", argv), upCommand)
      case "down":
        return Effect.flatMap(parseCommand("down", argv), () => Effect.tryPromise({ try: downCommand, catch: (e) => e }))
      case "probe":
        return Effect.flatMap(parseCommand("probe", argv), probeCommand)
    }
  })

const dispatch = (argv: ReadonlyArray<string>): Effect.Effect<number, unknown> => {
  const [first, ...rest] = argv
  if (first === "--version" || first === "-v") {
    process.stdout.write(`oracle-runner ${packageVersion()}\n`)
    return Effect.succeed(0)
  }
  if (first === "--help" || first === "-h" || first === "help") {
    process.stdout.write(MAIN_HELP)
    return Effect.succeed(0)
  }
  if (first === undefined) return Effect.fail(new UsageError({ message: "missing command" }))
  if (!isCommand(first)) return Effect.fail(new UsageError({ message: `unknown command ${first}` }))
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(HELP[first])
    return Effect.succeed(0)
  }
  return run(first, rest)
}

const report = (e: unknown): number => {
  if (e instanceof UsageError) {
    process.stderr.write(`oracle-runner: ${e.message}\n\nrun with --help for usage\n`)
    return 2
  }
  if (isOracleError(e)) {
    process.stderr.write(`oracle-runner: ${e.message}\n`)
    return 2
  }
  process.stderr.write(`oracle-runner: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
  return 1
}

/** The whole CLI for `argv`: its exit code; failures are reported on stderr (interruption stays interruption). */
export const program = (argv: ReadonlyArray<string>): Effect.Effect<number> =>
  dispatch(argv).pipe(
    Effect.catchAllCause((cause) => (Cause.isInterruptedOnly(cause) ? Effect.interrupt : Effect.sync(() => report(Cause.squash(cause)))))
  )
