/** Help texts of the `oracle` CLI: one per command; each names every option of its command (cliUsage.test.ts checks). */
export const MAIN_HELP = `oracle — compare the Hermes emulator with the real pinned gateway

Usage:
  oracle compare [options]     play scenarios on the real gateway (or its cassettes) and the emulator, diff, write evidence
  oracle record [options]      play scenarios on the real gateway and write one cassette per scenario under fixtures/<pin>/
  oracle replay FILE [options] play one scenario, cassette or counterexample file against a target
  oracle merge DIR|FILE …      join the evidence of the shards of one scenario set (compare --shard i/n) into one
  oracle report --base OLD.json --head NEW.json
                               what changed between two evidence files, as Markdown for a PR comment
  oracle wire [--scenario FILE ...] --out DIR
                               the same raw HTTP/1.1 bytes to the real gateway and the emulator over a socket:
                               status line, header order and casing, framing compared
  oracle fuzz [--count N] [--seed S] --out DIR
                               malformed requests as raw bytes to the real gateway and the emulator, compared;
                               --in-process: the emulator alone; --upload-probes: unread uploads side by side
  oracle schema                regenerate packages/diff/schema/*.schema.json from the Schemas
  oracle bench [--runs N] [--seed S] [--pin P]
                               scenarios per second against the emulator in process (generated scenarios)
  oracle bench --target process --workers 1,2,4 [--runs N] [--seed S] [--out FILE]
                               reference scenarios per second per worker count, side by side in one run
  oracle <command> --help      options of a command
  oracle --version             the version

--json (compare, replay, merge, report, fuzz, bench): one JSON document on stdout instead of the
summary (its Schema: src/cli/OracleDocument.ts); progress and logs always go to stderr. An option a
command does not take is an error (exit 2) that lists the ones it does.

Exit codes: 0 no divergence · 1 divergences · 2 the oracle could not run (never reported as a pass)
            · 130 stopped by SIGINT or SIGTERM (a second signal ends it at once). Every way out removes
            the gateways and temp HERMES_HOMEs it started; a closed stdout (| head) drops the output
            and the run ends with its own code.
`

export const COMPARE_HELP = `oracle compare — the emulator against the real pinned gateway

Usage: oracle compare [--pin 0.19.0|0.21.0] [--target process|container|cassette] [--runs N] [--seed S]
                      [--scenario FILE ...] [--out DIR] [--no-noise] [--register FILE] [--source DIR]
                      [--workers N] [--shard i/n] [--pick P] [--no-shrink] [--profile strict|tools|wall-clock|cors|cors-any] [--shared]
                      [--candidate inprocess|http] [--json] [--force]

  --pin P          the Hermes pin (default: source-lock.json's default, 0.19.0). The emulator runs the same pin.
  --profile P      the gateway profile both sides run (default strict: no tools). tools: todo, a terminal
                   confined to a scratch dir and the approval guard; plays packages/diff/scenarios/tools/
                   (and only scenarios and cassettes whose "profile" is tools). wall-clock: strict with
                   libfaketime faking the real gateway's wall clock alone, for scenarios that freeze it.
                   cors: strict with two browser origins allowed (API_SERVER_CORS_ORIGINS=
                   http://app.example,https://console.example:8443 and the emulator's corsOrigins);
                   cors-any: strict with every origin allowed (*)
  --target T       the reference side:
                     process    the real gateway started by the oracle runner's process launcher (default)
                     container  the real gateway in a container (needs an engine)
                     cassette   the cassettes recorded under fixtures/<pin>/ — offline, no gateway
  --runs N         also play N generated scenarios (fast-check, model-based; default 0)
  --seed S         seed for the generated scenarios (default: random; always printed)
  --scenario FILE  play these scenario files (repeatable; default: packages/diff/scenarios/*.json,
                   or every cassette with --target cassette)
  --out DIR        where evidence goes (default: evidence/): <pin>-<reference>-vs-<candidate>.json,
                   REPORT.md, report/index.html, .junit.xml; counterexamples go to DIR/counterexamples/
  --workers N      play on N workers in parallel: N real gateways, each with its own fake model,
                   HERMES_HOME and port, and N emulators (default 1)
  --shard i/n      play only shard i of n of the scenario set (files, then generated from --seed):
                   every n-th scenario from the i-th. Same files and --seed --runs on every machine;
                   join the shards' evidence with oracle merge
  --pick P         play only the scenario at position P of the set (the position the evidence and the
                   HTML report give each scenario; same files, --seed and --runs as the run it came from)
  --no-shrink      do not shrink the first divergent generated scenario after the run (campaigns:
                   the shrinking plays many more scenarios on the real gateway)
  --no-noise       do not play each scenario twice on the real gateway to learn its noise
  --shared         play every scenario on one gateway per worker instead of the default, a gateway of
                   its own per play (forked from a preloaded fork server, its own HERMES_HOME and port,
                   started ahead: docs/fresh-state.md). A shared scenario that leaves the gateway in
                   another state than it found it (sessions, jobs, runs, the fake model's queue and
                   pending calls) is an error, with the difference shown. --fresh (the default) is accepted
  --candidate C    where the emulator runs: inprocess (its Layer and fetch, no socket; default) or http
                   (its node:http server on a loopback port, what hermes-emulator serve answers with)
  --register FILE  the divergence register (default: packages/diff/divergence-register.json)
  --source DIR     a source checkout of the pin to install editable (0.21.0 where PyPI has no wheel;
                   without it the oracle runner fetches the locked source archive where that host is reachable)
  --json           one JSON document on stdout (summary, verdicts, files written) instead of the table
  --force          replace the REPORT.md an earlier run left in --out (without it: exit 2, nothing run)

Exit codes: 0 no divergence · 1 divergences (each listed in REPORT.md) · 2 the oracle could not run
(the pin cannot be obtained here, a launcher failed, a cassette lacks a request) — never a pass.
`

export const RECORD_HELP = `oracle record — record scenarios against the real gateway as cassettes

Usage: oracle record [--pin P] [--target process|container] [--scenario FILE ...] [--generate N --seed S]
                     [--out DIR] [--runs 1|2] [--source DIR] [--profile strict|tools|wall-clock|cors|cors-any] [--shared]

  --out DIR      fixtures directory (default: fixtures/); cassettes go to DIR/<pin>/<scenario-name>.json
  --runs 1|2     play each scenario this often (default 2: replay can then learn the gateway's noise offline)
  --generate N   also record N generated scenarios (the ones compare --runs N --seed S plays), each to
                 DIR/<pin>/generated-seed-S-<path>.json; without --scenario, only those
  --seed S       seed for --generate (default: random; always printed)
  --shared       play every scenario on one gateway instead of the default, a fresh gateway per play
                 (as compare): on a shared gateway a recording holds what earlier scenarios left behind
  --pin P, --target T, --scenario FILE, --source DIR, --profile P: as for oracle compare

Exit codes: 0 recorded · 2 the oracle could not run.
`

export const REPLAY_HELP = `oracle replay — play one file against a target

Usage: oracle replay FILE [--target inprocess|http|process|container|cassette] [--pin P] [--out DIR]
                          [--profile P] [--source DIR] [--json] [--force]

  FILE is a scenario (packages/diff/scenarios/*.json, evidence/counterexamples/*.json) or a cassette
  (fixtures/<pin>/*.json).
  --target inprocess|http   play it on the emulator and print the normalized exchanges (default)
  --target process|container  compare the real gateway with the emulator on it (like compare)
  --target cassette         compare the cassette (FILE must be one) with the emulator, offline
  --out DIR                 write evidence for a comparison (default: nothing written)
  --pin P                   the pin (default: the cassette's, else source-lock.json's default)
  --profile P               the gateway profile (default: the scenario's)
  --source DIR              a source checkout of the pin (as for oracle compare)
  --json                    one JSON document on stdout (the normalized exchanges, or the comparison)
  --force                   replace the REPORT.md an earlier run left in --out

Exit codes: 0 equal (or played) · 1 divergences · 2 the oracle could not run.
`

export const MERGE_HELP = `oracle merge — join the evidence of the shards of one scenario set

Usage: oracle merge DIR|FILE ... [--out DIR] [--json] [--force]

  DIR|FILE   shard evidence (a directory contributes every evidence JSON in it). All shards of one
             set must be there once each, with the same pin, seed, runs and shard count.
  --out DIR  where the merged evidence JSON, REPORT.md, report/index.html and JUnit go (default: evidence/)
  --json     one JSON document on stdout (summary, verdicts, files written) instead of the table
  --force    replace the REPORT.md an earlier run left in --out

Exit codes: like compare — 0 no divergence · 1 divergences · 2 errors, or shards that do not belong together.
`

export const REPORT_HELP = `oracle report — what changed between two evidence files

Usage: oracle report --head NEW.json [--base OLD.json] [--out FILE] [--html DIR] [--json]

  Markdown fit for a pull-request comment: new divergences, fixed ones, verdicts that changed,
  coverage cells gained and lost, speed. Printed, or written to FILE. Needs --base.
  The HTML report of NEW (with the delta against OLD when --base is given) goes to DIR/index.html
  (default: report/ next to FILE, or next to NEW.json). NEW and OLD may be .json.gz.
  --json     one JSON document on stdout: the counts, the Markdown and the HTML report's path

Exit codes: 0 no new divergence · 1 a divergence is new · 2 a file is not evidence.
`

export const WIRE_HELP = `oracle wire — header order, casing and framing, compared over raw sockets

Usage: oracle wire [--pin 0.19.0] [--scenario FILE ...] [--out DIR]
       oracle wire --connection-probes [--pin 0.19.0] --out DIR

  --pin P          the pin (default 0.19.0)
  --scenario FILE  the scenarios to play (repeatable; default: the sample below)
  --out DIR        where the evidence goes (default: evidence/wire/)
  --connection-probes  instead of scenarios, raw bytes in steps on one connection (src/wire/connectionProbes.ts):
                   the answers and how the connection ends (an early answer while the body is coming,
                   keep-alive, Connection: close, HTTP/1.0, refused Content-Length); DIR/connection-ends-<pin>.json and .md

Plays a sample of scenarios (default: one file per family of answers, see src/wire/wireCommand.ts)
on the real gateway (twice: what differs between its own runs is noise) and on the emulator over
HTTP. Every request is the same HTTP/1.1 bytes on both sides (fixed Host, the gateway's key on both,
one request per connection); each answer keeps its status line (with its reason phrase), header
names in wire order with their casing, and framing (Content-Length, chunked, close-delimited), and
is judged like a comparison's (normalizer, differ, divergence register) with the head compared too.
Evidence, the common schema: DIR/wire-<pin>.json, REPORT.md, report/index.html, wire-<pin>.junit.xml
(\`oracle report\` and \`oracle merge\` read it).

Exit codes: 0 no divergence · 1 a divergence (a head or an answer differs, no register entry explains it) · 2 could not run (a scenario could not be played)
`

export const FUZZ_HELP = `oracle fuzz — differential fuzzing of malformed requests

Usage:
  oracle fuzz [--count N] [--seed S] [--pin 0.19.0] --out DIR
      the real gateway and the emulator get the same bytes, each case judged like a scenario (normalizer,
      differ, divergence register); evidence, the common schema: DIR/fuzz-<pin>.json, REPORT.md, report/
  oracle fuzz --in-process [--count N] [--seed S] [--reference FILE] [--live-check] --out DIR
      the emulator alone: crashes, state changes from rejected requests, and each 5xx checked against
      the reference run; --live-check sends the 5xx requests the reference lacks to the real gateway
  oracle fuzz --upload-probes --out DIR
      uploads an early answer left unread, streamed to the real gateway and the emulator side by side:
      the answer, the bytes taken, when the connection ended; evidence DIR/upload-linger-<pin>.json and .md

  --count N         cases (default 5000)      --seed S   the cases' seed (default 1)
  --pin P           the pin (default 0.19.0)  --out DIR  where the evidence goes (required)
  --reference FILE  a live run's evidence (in-process: which 5xx the real gateway gives)
  --in-process, --live-check, --upload-probes: the modes above
  --json            one JSON document on stdout: the verdict line's counts and the evidence file

Exit codes: 0 nothing unexplained · 1 a divergence or a violation · 2 could not run
`

export const SCHEMA_HELP = `oracle schema — regenerate the JSON Schemas

Usage: oracle schema

Writes packages/diff/schema/evidence.schema.json and cassette.schema.json from the Effect Schemas. No options.
`

export const BENCH_HELP = `oracle bench — scenarios per second

Usage: oracle bench [--runs N] [--seed S] [--pin P] [--json]
       oracle bench --target process|container [--workers 1,2,4] [--runs N] [--seed S] [--scenario FILE ...]
                    [--source DIR] [--out FILE] [--json]

  --target inprocess   (default) generated scenarios played on the emulator in process, then compared
                       emulator against emulator: the pipeline's own pace
  --target process|container
                       the real gateway's scenarios/s for each --workers count, one after another,
                       with the load average and where the CPU went; written to --out
                       (default evidence/campaign/workers-bench.json) and its REPORT.md's workers section
  --runs N             generated scenarios (default 500 in process, 20 against the real gateway)
  --seed S             their seed (default 1)
  --pin P              the pin (default: source-lock.json's default)
  --workers LIST       worker counts (default 1,2,4)
  --scenario FILE      scenario files played too (repeatable)
  --source DIR         a source checkout of the pin (as for oracle compare)
  --out FILE           where the workers benchmark goes
  --json               one JSON document on stdout instead of the table

Exit codes: 0 every comparison equal · 1 some not equal · 2 could not run (or errors)
`
