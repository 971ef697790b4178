#!/usr/bin/env node
// Builds every workspace package to dist/ (ESM JavaScript + .d.ts): one `tsc -b` over each
// package's tsconfig.build.json, then each package's own `bundle` script if it has one. Generic over
// the workspaces: a new package only needs a tsconfig.build.json whose references name the
// @hermetic packages it depends on (checked here, so a missing reference fails loudly).
// Run by `npm ci`/`npm install` through the root `prepare` script, so a fresh clone is built.
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const readJson = (path) => JSON.parse(readFileSync(path, "utf8"))

/** The workspaces named by the root package.json (only "dir/*" globs and plain paths are used here). */
const workspaceDirs = () =>
  readJson(join(root, "package.json")).workspaces.flatMap((pattern) =>
    pattern.endsWith("/*")
      ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => join(root, pattern.slice(0, -2), d.name))
      : [join(root, pattern)]
  ).filter((dir) => existsSync(join(dir, "package.json")))

const packages = workspaceDirs().map((dir) => {
  const manifest = readJson(join(dir, "package.json"))
  const deps = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })
  return { dir, manifest, deps }
})
const byName = new Map(packages.map((p) => [p.manifest.name, p]))

const problems = []
for (const p of packages) {
  const config = join(p.dir, "tsconfig.build.json")
  if (!existsSync(config)) {
    problems.push(`${p.manifest.name}: no tsconfig.build.json`)
    continue
  }
  const refs = new Set((readJson(config).references ?? []).map((r) => resolve(p.dir, r.path)))
  for (const dep of p.deps.filter((d) => byName.has(d))) {
    const wanted = join(byName.get(dep).dir, "tsconfig.build.json")
    if (!refs.has(wanted)) problems.push(`${p.manifest.name}: tsconfig.build.json lacks a reference to ${wanted} (it depends on ${dep})`)
  }
}
if (problems.length > 0) {
  process.stderr.write(`build: ${problems.join("\n       ")}\n`)
  process.exit(1)
}

const tsc = join(root, "node_modules", "typescript", "bin", "tsc")
const run = (args, cwd = root) => execFileSync(process.execPath, args, { cwd, stdio: "inherit" })
run([tsc, "-b", ...packages.map((p) => join(p.dir, "tsconfig.build.json"))])
for (const p of packages) {
  const bundle = p.manifest.scripts?.bundle
  if (bundle !== undefined) execFileSync(bundle, { cwd: p.dir, stdio: "inherit", shell: true })
}
