/**
 * Every workspace package declares exactly what its published code imports: each bare import of
 * src/ is a dependency or peer dependency, each declared one is imported (or, for the emulator's
 * CLI bundle, kept external by scripts/bundle.mjs), and effect/@effect/* are peers, never dependencies.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { builtinModules } from "node:module"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const packagesDir = new URL("../../packages/", import.meta.url).pathname
const packages = readdirSync(packagesDir).filter((d) => existsSync(join(packagesDir, d, "package.json")))

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  )

/** The package a bare specifier names: "effect/Schema" → effect, "@effect/sql/SqlClient" → @effect/sql. */
const packageOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/")

const importsOf = (dir: string): Set<string> => {
  const found = new Set<string>()
  // an import/export clause holds only names, braces, commas, `*`, `as` and `type`: the pattern
  // cannot run from `export const f = …` into a later `from "…"` in a comment
  const pattern = /(?:^|\n)\s*(?:import|export)\s[\w$*\s{},]*?\bfrom\s+"([^"]+)"|(?:^|\n)\s*import\s+"([^"]+)"|import\("([^"]+)"\)/g
  for (const file of sourceFiles(join(dir, "src"))) {
    for (const m of readFileSync(file, "utf8").matchAll(pattern)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? ""
      if (spec.startsWith(".") || spec.startsWith("node:") || builtinModules.includes(spec)) continue
      found.add(packageOf(spec))
    }
  }
  // the emulator's one-file CLI bundle keeps its `external` packages as imports of its own
  const bundle = join(dir, "scripts", "bundle.mjs")
  if (existsSync(bundle)) for (const m of readFileSync(bundle, "utf8").matchAll(/external:\s*\[([^\]]*)\]/g)) for (const s of (m[1] ?? "").matchAll(/"([^"]+)"/g)) found.add(s[1] ?? "")
  return found
}

describe.each(packages)("packages/%s", (dir) => {
  const manifest = JSON.parse(readFileSync(join(packagesDir, dir, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>
    peerDependencies?: Record<string, string>
  }
  const declared = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).sort()
  const imported = [...importsOf(join(packagesDir, dir))].sort()

  it("declares exactly the packages its code imports", () => {
    expect(declared).toEqual(imported)
  })

  it("takes effect and @effect/* as peers on the Effect 3 line", () => {
    expect(Object.keys(manifest.dependencies ?? {}).filter((d) => d === "effect" || d.startsWith("@effect/"))).toEqual([])
    expect(manifest.peerDependencies?.["effect"]).toMatch(/^\^3\./)
  })
})
