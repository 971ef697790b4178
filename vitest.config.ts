import { defaultServerConditions } from "vite"
import { defineConfig } from "vitest/config"

// Workspace imports (@hermetic/*) resolve to each package's src/ through the "@hermetic/source"
// export condition, so the suite tests the sources without a build (the consumer test covers dist/).
const conditions = ["@hermetic/source", ...defaultServerConditions]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts", "docs/examples/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
