/**
 * Draws the emulator's structure from its imports: each area (a foundation folder, a feature
 * folder, the composition files) with the areas it imports and how many imports, then the file
 * cycles. `--rev REV` draws the tree at a git revision instead of the working tree.
 *
 *   node --import tsx tools/structure.ts [--rev main]
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { importCycles, type ImportGraph, readImportGraph } from "../packages/emulator/test/importGraph.js"

const SRC = "packages/emulator/src"

/** The area of a file: `features/<feature>`, its top folder, or `src/*.ts` for the files at the top. */
const areaOf = (file: string): string => {
  const parts = file.split("/")
  if (parts[0] === "features" && parts.length > 2) return `features/${parts[1]}`
  return parts.length > 1 ? `${parts[0]}/` : "src/*.ts"
}

/** Area → imported area → how many file imports. */
export const areaEdges = (graph: ImportGraph): Map<string, Map<string, number>> => {
  const edges = new Map<string, Map<string, number>>()
  for (const [from, targets] of graph) {
    const a = areaOf(from)
    const row = edges.get(a) ?? new Map<string, number>()
    edges.set(a, row)
    for (const to of targets) {
      const b = areaOf(to)
      if (b !== a) row.set(b, (row.get(b) ?? 0) + 1)
    }
  }
  return edges
}

export const draw = (graph: ImportGraph): string => {
  const edges = areaEdges(graph)
  const width = Math.max(...[...edges.keys()].map((a) => a.length))
  const lines = [...edges]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([area, row]) => {
      const to = [...row].sort(([a], [b]) => a.localeCompare(b)).map(([b, n]) => `${b}(${n})`).join(" ")
      return `${area.padEnd(width)} ─► ${to === "" ? "·" : to}`
    })
  const cycles = importCycles(graph)
  lines.push("", cycles.length === 0 ? "file cycles: none" : `file cycles: ${cycles.length}`)
  for (const cycle of cycles) lines.push(`  ${cycle.join(" ↔ ")}`)
  return lines.join("\n")
}

const rev = process.argv.indexOf("--rev")
if (rev === -1) {
  console.log(draw(readImportGraph(SRC)))
} else {
  const dir = mkdtempSync(join(tmpdir(), "structure-"))
  try {
    const archive = execFileSync("git", ["archive", process.argv[rev + 1] ?? "HEAD", SRC])
    execFileSync("tar", ["-x", "-C", dir], { input: archive })
    console.log(draw(readImportGraph(join(dir, SRC))))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
