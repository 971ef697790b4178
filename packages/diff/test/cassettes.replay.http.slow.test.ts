/**
 * Every committed cassette replayed against the emulator's node:http server, started in this
 * process on a loopback port: the same recorded answers now judge the socket edge too (framing,
 * header passing, request bodies read off the wire), which the in-process replay never runs.
 * In the slow tier, not `npm test`: cli.test.ts already replays every cassette over HTTP through
 * the CLI there, and this adds ~20–30 s; the mutation suite (vitest.mutation.config.ts) runs it,
 * because only a replay in the test's own process can kill a mutant.
 */
import { emulatorHttpTarget } from "../src/target/EmulatorTargets.js"
import { replayCommittedCassettes } from "./replayCommittedCassettes.js"

replayCommittedCassettes("committed cassettes replay against the emulator over HTTP", emulatorHttpTarget)
