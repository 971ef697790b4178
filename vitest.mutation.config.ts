import { configDefaults, defineConfig } from "vitest/config"
import base from "./vitest.config.js"

/**
 * The suite that judges the emulator in the mutation score: only tests whose expectations were
 * recorded from the real gateway (cassettes in fixtures/, the live fuzz run's raw exchanges in evidence/live-comparisons/fuzz/,
 * the connection probes in evidence/live-comparisons/connection-ends/). The
 * emulator's own unit tests are left out on purpose: they would measure the emulator against itself.
 */
export const RECORDED_EVIDENCE_SUITE = [
  "packages/diff/test/cassettes.replay.test.ts",
  // the same cassettes over the emulator's node:http server in this process (Stryker switches
  // mutants in this process only, so cli.test.ts's replay through a child CLI cannot kill any)
  "packages/diff/test/cassettes.replay.http.slow.test.ts",
  "packages/emulator/test/chat/chat-vs-live.test.ts",
  "packages/diff/test/responses-live-parity/live-parity.test.ts",
  // the committed live fuzz run's raw requests (bytes fetch cannot send), each against its recorded real answer
  "packages/diff/test/fuzz.replay.test.ts",
  // the recorded connection probes (evidence/live-comparisons/connection-ends/): raw bytes in steps on one
  // connection, the answers and where the real gateway ended or kept it (the socket adapter's keep-alive decisions)
  "packages/diff/test/wire.replay.test.ts"
]

// the base config with its include replaced (mergeConfig would append to it) and the slow tier let
// back in (the HTTP replay is in it). Without isolation a mutant's run reuses the modules the worker
// already loaded: Stryker switches mutants through a global read at call time, so only the test files run again, not the collection of everything they import
export default defineConfig({ ...base, test: { ...base.test, include: RECORDED_EVIDENCE_SUITE, exclude: configDefaults.exclude, isolate: false, pool: "threads" } })
