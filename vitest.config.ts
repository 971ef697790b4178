import { availableParallelism } from "node:os"
import { defaultServerConditions } from "vite"
import { configDefaults, defineConfig } from "vitest/config"

// Workspace imports (@hermetic/*) resolve to each package's src/ through the "@hermetic/source"
// export condition, so the suite tests the sources without a build (the consumer test covers dist/).
// ("module" is left out: it names bundler-only builds, e.g. @opentelemetry/api's, that Node cannot load)
const conditions = ["@hermetic/source", ...defaultServerConditions.filter((c) => c !== "module")]

// The slow tier: the consumer test (packs every package, installs the tarballs in a fresh project,
// uses them there) and `*.slow.test.ts` (real-time waits on real sockets). `npm test` leaves it out;
// `npm run test:slow` (HERMETIC_SLOW_TESTS=1) runs only it, and .ci/run runs it in its smoke.
const slow = ["test/consumer/**/*.test.ts", "**/*.slow.test.ts"]
const slowOnly = process.env["HERMETIC_SLOW_TESTS"] === "1"

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: slowOnly ? slow : ["packages/*/test/**/*.test.ts", "packages/*/examples/**/*.test.ts", "test/**/*.test.ts", "docs/examples/**/*.test.ts"],
    exclude: slowOnly ? configDefaults.exclude : [...configDefaults.exclude, ...slow],
    // vitest's default is one worker per core but one (a single worker on 2 cores, the other core
    // idle but for transforms), while many files mostly wait: on child processes, sockets, timers.
    // Two at least: bench/test-suite.ts measures the difference (evidence/benchmarks/test-suite/).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // a worker keeps the modules it has loaded (Effect, the emulator's sources) from one file to the
    // next instead of loading them again per file: about half the CPU of collecting. The files
    // restore what they change (spies in afterEach, temp dirs in afterAll), which this relies on.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
