#!/usr/bin/env node
// The oracle CLI, compiled to dist/ by `npm run build` (run by `npm ci` at the repo root).
// From a checkout without a build: npm run oracle -- ... (runs the sources through tsx).
await import("../dist/cli/main.js")
