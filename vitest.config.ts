import { defaultServerConditions } from "vite"
import { defineConfig } from "vitest/config"

// Workspace imports (@hermetic/*) resolve to each package's src/ through the "@hermetic/source"
// export condition, so the suite tests the sources without a build (the consumer test covers dist/).
// ("module" is left out: it names bundler-only builds, e.g. @opentelemetry/api's, that Node cannot load)
const conditions = ["@hermetic/source", ...defaultServerConditions.filter((c) => c !== "module")]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["packages/*/test/**/*.test.ts", "packages/*/examples/**/*.test.ts", "test/**/*.test.ts", "docs/examples/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
