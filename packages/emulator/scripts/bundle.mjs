#!/usr/bin/env node
// Bundles the hermes-emulator CLI into one minified CommonJS file (dist/hermes-emulator.cjs) and
// writes its launcher (dist/hermes-emulator-launcher.cjs, which bin/hermes-emulator.cjs requires):
// it runs the bundle through a V8 code cache. Parsing and compiling the bundle was the largest part
// of a cold start; with the cache a start skips it, and the functions the last run of the same
// command compiled (its start-up and first requests) come compiled. Node's module.enableCompileCache
// (used by the other bins) writes its cache right after compiling, so it holds only what V8
// compiled eagerly: with it a start to the first /health took 156 ms CPU, with this launcher 123
// (medians of 15 interleaved starts, Node 24.22.3), so the bundle keeps its own. The launcher is CommonJS so that a start never sets up Node's
// ESM loader (~3.5 ms). better-sqlite3's native addon stays in the installed package (a
// dependency of the package); its JavaScript is bundled (scripts/bundled-sqlite.cjs says why).
import { createHash } from "node:crypto"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { build } from "esbuild"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const bundle = `${root}dist/hermes-emulator.cjs`

/**
 * `better-sqlite3` in the bundle is scripts/bundled-sqlite.cjs: the package's JavaScript bundled,
 * its native addon loaded by path (see there). That file's own `better-sqlite3?installed` is the
 * installed package, kept external.
 */
const requireFromHere = createRequire(import.meta.url)
const sqliteShim = fileURLToPath(new URL("./bundled-sqlite.cjs", import.meta.url))
const bundledSqlite = {
  name: "bundled-sqlite",
  setup(b) {
    b.onResolve({ filter: /^better-sqlite3(\?installed|\?bundled)?$/ }, (args) => {
      if (args.path.endsWith("?installed")) return { path: "better-sqlite3", external: true }
      // the package's own JavaScript, bundled (its exports map names only ".")
      if (args.path.endsWith("?bundled")) return { path: requireFromHere.resolve("better-sqlite3") }
      return { path: sqliteShim }
    })
  }
}
/**
 * effect/Utils asks at load whether V8 keeps its `effect_internal_function` frame in a stack trace
 * (`new Error().stack`): formatting that first stack trace cost a start ~2 ms. On V8 the answer is
 * always yes (a function's first call is never inlined away), so the bundle has it as a constant.
 * Another effect release without that line only loses the 2 ms, with a warning here.
 */
const STACK_PROBE = `standard.effect_internal_function(() => new Error().stack)?.includes("effect_internal_function") === true`
const effectStackProbe = {
  name: "effect-stack-probe",
  setup(b) {
    b.onLoad({ filter: /[\\/]effect[\\/]dist[\\/]esm[\\/]Utils\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8")
      if (!source.includes(STACK_PROBE)) return { contents: source, warnings: [{ text: "effect/Utils: its stack-trace probe changed; the bundle keeps it as it is" }] }
      return { contents: source.replace(STACK_PROBE, "true") }
    })
  }
}
/**
 * `import { Effect, Layer } from "effect"` in our sources becomes `import * as Effect from
 * "effect/Effect"`, one import per module (the same for @effect/sql, @effect/platform and
 * @effect/experimental). Through a package's index each module's namespace was an object holding
 * every export, so esbuild kept all of them and all they use (23 whole modules, Effect, Stream and
 * Schema among them); imported by their own path, only what is used stays.
 */
const BARRELS = ["effect", "@effect/sql", "@effect/platform", "@effect/experimental"]
const barrelImport = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*"(${BARRELS.join("|")})"`, "g")
const deepImports = {
  name: "deep-imports",
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]src[\\/].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8")
      const contents = source.replace(barrelImport, (_, names, from) => {
        const functions = []
        const modules = []
        for (const spec of names.split(",").map((n) => n.trim()).filter((n) => n !== "" && !n.startsWith("type "))) {
          const [name, local = name] = spec.split(/\s+as\s+/)
          // modules are capitalized (Effect, Layer); the rest are functions (pipe, identity)
          if (/^[A-Z]/.test(name)) modules.push(`import * as ${local} from "${from}/${name}"`)
          else functions.push(spec)
        }
        return [...modules, ...(functions.length > 0 ? [`import { ${functions.join(", ")} } from "${from}"`] : [])].join("; ")
      })
      return { contents, loader: "ts" }
    })
  }
}
await build({
  entryPoints: [`${root}src/cli/main.ts`],
  outfile: bundle,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node22",
  plugins: [bundledSqlite, effectStackProbe, deepImports],
  // workspace packages (@hermetic/script) are bundled from their sources, so no build order matters
  conditions: ["@hermetic/source"],
  // the sources are ESM: their import.meta.url is the bundle's own URL
  define: { "import.meta.url": "__hermeticModuleUrl" },
  banner: { js: "const __hermeticModuleUrl = require(\"node:url\").pathToFileURL(__filename).href;" },
  // smaller source, fewer lines and names: a start with the code cache took ~9 ms less CPU (on the
  // 1.8 MB bundle before deep imports). Names are not kept (keepNames cost most of that back);
  // nothing in the CLI reads a function's name. A stack trace of the CLI is a minified one.
  minify: true,
  logLevel: "warning"
})

// V8 checks a cache against the source's length, not its text: the cache is named after the bundle's hash
const hash = createHash("sha256").update(readFileSync(bundle)).digest("hex").slice(0, 16)

const launcher = `// Generated by scripts/bundle.mjs: runs hermes-emulator.cjs through a V8 code cache written after
// the run (Node's module.enableCompileCache writes one before it, without the lazily compiled
// functions a start runs). The cache lives in the OS temp dir, one per bundle, Node version
// and command; a process that found none (or a stale one) writes it as it exits, so the next start
// of the same command skips parsing and compiling what that one ran. Any failure only means no cache.
"use strict"
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require("node:fs")
const { tmpdir } = require("node:os")
const { join } = require("node:path")
const { constants, Script } = require("node:vm")

const file = join(__dirname, "hermes-emulator.cjs")
const command = /^[a-z][a-z-]*$/.test(process.argv[2] ?? "") ? process.argv[2] : "other"
const cacheDir = join(tmpdir(), "hermetic-compile-cache")
const cacheFile = join(cacheDir, \`hermes-emulator-${hash}-\${process.version}-\${process.arch}-\${command}.bin\`)
let cachedData
try {
  cachedData = readFileSync(cacheFile)
} catch {
  // none yet
}
const script = new Script(\`(function (exports, require, module, __filename, __dirname) {\${readFileSync(file, "utf8")}\\n})\`, {
  filename: file,
  cachedData,
  importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER
})
if (cachedData === undefined || script.cachedDataRejected === true) {
  process.once("exit", () => {
    try {
      mkdirSync(cacheDir, { recursive: true })
      const partial = \`\${cacheFile}.\${process.pid}\`
      writeFileSync(partial, script.createCachedData())
      renameSync(partial, cacheFile)
    } catch {
      // a read-only temp dir: the next start compiles again
    }
  })
}
const bundled = { exports: {} }
// the launcher's own require: it sits beside the bundle, so it resolves what the bundle's would
// (node:module's createRequire loads Node's ESM loader, ~0.4 ms of a start)
script.runInThisContext()(bundled.exports, require, bundled, file, __dirname)
`
writeFileSync(`${root}dist/hermes-emulator-launcher.cjs`, launcher)
// the ESM launcher of earlier builds, if this dist/ still has one
rmSync(`${root}dist/hermes-emulator.mjs`, { force: true })
