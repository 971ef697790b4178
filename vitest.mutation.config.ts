import { defineConfig } from "vitest/config"
import base from "./vitest.config.js"

/**
 * The suite that judges the emulator in the mutation score: only tests whose expectations were
 * recorded from the real gateway (cassettes in fixtures/, raw exchanges in evidence/live/). The
 * emulator's own unit tests are left out on purpose: they would measure the emulator against itself.
 */
export const RECORDED_EVIDENCE_SUITE = [
  "packages/diff/test/cassettes.replay.test.ts",
  "packages/emulator/test/chat/chat-vs-live.test.ts",
  "packages/diff/test/responses-live-parity/live-parity.test.ts"
]

// the base config with its include replaced (mergeConfig would append to it). Without isolation a
// mutant's run reuses the modules the worker already loaded: Stryker switches mutants through a
// global read at call time, so only the test files run again, not the collection of everything they import
export default defineConfig({ ...base, test: { ...base.test, include: RECORDED_EVIDENCE_SUITE, isolate: false, pool: "threads" } })
