/**
 * Dead exports: each `export`ed declaration (and each name an `export { … }` list forwards) of
 * packages/*\/src that no other TypeScript file of packages/, test/, docs/examples/, bench/ or
 * tools/ mentions (index re-exports aside) and its own file names only where it declares it.
 * Names other files do not use but their own file does are counted, not listed (`--all` lists
 * them): the export may go, the code stays. Markdown files that still document a name are shown.
 *
 *   node --import tsx tools/dead-exports.ts
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"

const root = join(import.meta.dirname, "..")
const SKIP = new Set(["node_modules", "dist", ".git", "coverage", "reports"])

const walk = (dir: string, out: Array<string> = []): Array<string> => {
  let names: Array<string>
  try {
    names = readdirSync(dir)
  } catch {
    return out
  }
  for (const name of names) {
    if (SKIP.has(name)) continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path, out)
    else if (/\.(ts|mts|md)$/.test(name) && !name.endsWith(".d.ts")) out.push(path)
  }
  return out
}

const files = ["packages", "test", "docs/examples", "bench", "tools"].flatMap((d) => walk(join(root, d)))
const texts = new Map(files.map((f) => [f, readFileSync(f, "utf8")]))
const isIndex = (f: string) => /\/index\.ts$/.test(f)
// what a file uses, its re-exports (`export … from`) aside: forwarding a name is not using it
const REEXPORT = /^export\s+(?:type\s+)?(?:\*|\{[^}]*\})(?:\s+as\s+\w+)?\s+from\s+[^\n]*$/gm
const uses = new Map(files.map((f) => [f, (texts.get(f) as string).replace(REEXPORT, "")]))

const DECLARED = /^export\s+(?:declare\s+)?(?:async\s+)?(?:const|let|function\*?|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm
const LISTED = /^export\s+(?:type\s+)?\{([^}]*)\}/gm

const exportsOf = (text: string): Array<string> => {
  const names = [...text.matchAll(DECLARED)].map((m) => m[1] as string)
  for (const m of text.matchAll(LISTED)) {
    for (const part of (m[1] as string).split(",")) {
      const name = part.replace(/^\s*type\s+/, "").split(/\s+as\s+/).at(-1)?.trim()
      if (name !== undefined && name !== "" && name !== "default") names.push(name)
    }
  }
  return names
}

const sources = files.filter((f) => /\/packages\/[^/]+\/src\/.*\.ts$/.test(f))
const all = process.argv.includes("--all")
const rows: Array<string> = []
let localOnly = 0
for (const file of sources) {
  if (isIndex(file)) continue
  for (const name of new Set(exportsOf(texts.get(file) as string))) {
    const word = new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\b`)
    const users = files.filter((f) => f !== file && !f.endsWith(".md") && word.test(uses.get(f) as string))
    if (users.length > 0) continue
    const own = (texts.get(file) as string).match(new RegExp(word.source, "g"))?.length ?? 0
    const publicApi = files.some((f) => isIndex(f) && word.test(texts.get(f) as string))
    if (own > 1 && !all) {
      localOnly++
      continue
    }
    const docs = files.filter((f) => f.endsWith(".md") && word.test(texts.get(f) as string)).map((f) => relative(root, f))
    rows.push(`${relative(root, file)}  ${name}${publicApi ? "  [index]" : ""}${own > 1 ? "  (used in its file)" : ""}${docs.length > 0 ? `  (documented: ${docs.join(", ")})` : ""}`)
  }
}
console.log(rows.join("\n"))
console.log(`${rows.length} dead exports; ${localOnly} more exported names only their own file uses`)
