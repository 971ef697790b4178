#!/usr/bin/env node
// Bundles the hermes-emulator CLI into one ESM file (dist/hermes-emulator.mjs) so that it starts in
// a few hundred milliseconds instead of the seconds tsx's loader takes over the TypeScript sources.
// better-sqlite3 stays external (a native module, hence a dependency of the package); a require shim
// lets bundled CommonJS load builtins.
import { build } from "esbuild"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
await build({
  entryPoints: [`${root}src/cli/main.ts`],
  outfile: `${root}dist/hermes-emulator.mjs`,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["better-sqlite3"],
  // workspace packages (@hermetic/script) are bundled from their sources, so no build order matters
  conditions: ["@hermetic/source"],
  banner: { js: "import { createRequire as __hermeticRequire } from 'node:module'; const require = __hermeticRequire(import.meta.url);" },
  logLevel: "warning"
})
