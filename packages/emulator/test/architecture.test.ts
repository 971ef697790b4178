/**
 * The emulator's structure, checked from its source text (cheap: no build, no server).
 *
 * - Layers (test/importGraph.ts): the foundation (python, version, namespace, config,
 *   services/journal/http, content, idempotency, agent) imports no feature and nothing above it;
 *   a feature (src/features/<feature>/) imports the foundation, and another feature only through
 *   a listed seam; the composition above (src/*.ts, record, snapshot, cli, testing) may import all.
 * - No import cycle, computed from the import graph (`import type` counts).
 * - Runs have one owner: run state lives in `features/runs/Runs.ts` in `#private` fields, and no
 *   file outside `features/runs/` names a run map (as GatewayState's public maps were named before).
 * - No generator function is made per call, and no function literal is assigned to a property
 *   (scripts/retention-lint.mjs): both keep a request alive until a full collection.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative, sep } from "node:path"
import { describe, expect, it } from "vitest"
import { FOUNDATION, importCycles, layerViolations, readImportGraph, SEAMS } from "./importGraph.js"

const src = new URL("../src/", import.meta.url).pathname

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  )

const files = sourceFiles(src)
const graph = readImportGraph(src)

describe("emulator layers", () => {
  it("reads the foundation's and the features' files, and their imports", () => {
    for (const folder of Object.keys(FOUNDATION)) expect([...graph.keys()].some((f) => f.startsWith(`${folder}/`))).toBe(true)
    for (const feature of ["runs", "sessions", "jobs", "responses", "chat", "discovery", "platforms", "admin"]) {
      expect([...graph.keys()].some((f) => f.startsWith(`features/${feature}/`))).toBe(true)
    }
    expect(graph.get("RouteTable.ts")).toContain("features/runs/CreateRun.ts")
  })

  it("every seam names a file that exists", () => {
    expect(Object.keys(SEAMS).filter((f) => !graph.has(f))).toEqual([])
  })

  it("no import runs up, and a feature reaches another only through a seam", () => {
    expect(layerViolations(graph)).toEqual([])
  })

  it("has no import cycle", () => {
    expect(importCycles(graph)).toEqual([])
  })
})

describe("the layer rules catch what they forbid", () => {
  const made = (edges: Record<string, ReadonlyArray<string>>) => new Map(Object.entries(edges))

  it("a foundation importing a feature, or the composition", () => {
    expect(layerViolations(made({ "services/A.ts": ["features/runs/Runs.ts"], "http/B.ts": ["App.ts"] }))).toEqual([
      "services/A.ts → features/runs/Runs.ts (a foundation imports a feature)",
      "http/B.ts → App.ts (imports the composition above it)"
    ])
  })

  it("a lower foundation folder importing a higher one", () => {
    expect(layerViolations(made({ "python/A.ts": ["services/Journal.ts"], "agent/B.ts": ["python/index.ts"] }))).toEqual([
      "python/A.ts → services/Journal.ts (python/ may not import services/)"
    ])
  })

  it("a feature importing another outside a seam, and the seam it may use", () => {
    const g = made({ "features/jobs/A.ts": ["features/sessions/SessionRow.ts", "features/sessions/SessionStore.ts"] })
    expect(layerViolations(g)).toEqual(["features/jobs/A.ts → features/sessions/SessionRow.ts (not a seam of features/sessions/ open to jobs)"])
    expect(layerViolations(g, {})).toHaveLength(2)
  })

  it("finds each cycle, however long, and no cycle in a chain", () => {
    const g = made({ "a.ts": ["b.ts"], "b.ts": ["c.ts"], "c.ts": ["a.ts"], "d.ts": ["d.ts"], "e.ts": ["a.ts"] })
    expect(importCycles(g)).toEqual([["a.ts", "b.ts", "c.ts"], ["d.ts"]])
    expect(importCycles(made({ "a.ts": ["b.ts"], "b.ts": ["c.ts"], "c.ts": [] }))).toEqual([])
  })

  it("finds the cycle a real file would close", () => {
    const closed = new Map(graph)
    closed.set("journal/JournalQuery.ts", [...(graph.get("journal/JournalQuery.ts") ?? []), "services/Journal.ts"])
    expect(importCycles(closed)).toEqual([["journal/JournalQuery.ts", "services/Journal.ts"]])
  })
})

/** GatewayState's run maps before runs had one owner; a revived one outside runs/ is a second owner. */
const RUN_MAP_NAMES = /\.(runStatuses|runStreams|streamSubscribers|liveRuns|keyedRuns)\b/

describe("runs have one owner", () => {
  it("no file outside features/runs/ names a run map", () => {
    const reaching = files
      .filter((f) => !relative(src, f).startsWith(`features${sep}runs${sep}`))
      .flatMap((f) => readFileSync(f, "utf8").split("\n").flatMap((line, i) => (RUN_MAP_NAMES.test(line) ? [`${relative(src, f)}:${i + 1}: ${line.trim()}`] : [])))
    expect(reaching).toEqual([])
  })

  it("Runs keeps every map and set of run state in a #private field", () => {
    const owner = readFileSync(join(src, "features", "runs", "Runs.ts"), "utf8")
    const fields = [...owner.matchAll(/^ {2}(readonly )?([#\w]+)(?:: [^=\n]+)? = new (Map|Set)\b/gm)].map((m) => m[2] ?? "")
    expect(fields.length).toBeGreaterThanOrEqual(5)
    expect(fields.filter((name) => !name.startsWith("#"))).toEqual([])
  })

  it("the process memory below runs/ holds no run map", () => {
    const process = readFileSync(join(src, "services", "GatewayProcess.ts"), "utf8")
    expect(process).not.toMatch(/\b\w*[Rr]un\w*\s*=\s*new (Map|Set)\b/)
  })
})

/**
 * Nothing on the request path keeps a request alive until V8's next full collection
 * (scripts/retention-lint.mjs says why; docs/performance.md has the measurements).
 */
describe("nothing made per call is allocated where only a full collection frees it", () => {
  const root = new URL("../../../", import.meta.url).pathname
  const lint = (...dirs: ReadonlyArray<string>) =>
    spawnSync(process.execPath, [join(root, "scripts", "retention-lint.mjs"), ...dirs], { cwd: root, encoding: "utf8" })

  it("the lint finds both patterns in a sample", () => {
    const dir = mkdtempSync(join(tmpdir(), "retention-lint-"))
    writeFileSync(
      join(dir, "sample.ts"),
      [
        "import { Effect } from \"effect\"",
        "export const once = Effect.gen(function*() { return 1 })",
        "export const perCall = (n: number) => Effect.gen(function*() { return n })",
        "export const stored = (o: { f?: () => number }, n: number) => { o.f = () => n }",
        "export const viaConst = (o: { f?: () => number }, n: number) => { const f = () => n; o.f = f }",
        ""
      ].join("\n")
    )
    const result = lint(dir)
    expect(result.status).toBe(1)
    expect(result.stdout).toContain("sample.ts:3:")
    expect(result.stdout).toContain("generator made per call")
    expect(result.stdout).toContain("sample.ts:4:")
    expect(result.stdout).toContain("function literal assigned to a property")
    expect(result.stdout).toContain("2 found")
  })

  it("finds neither in the emulator's and the Script engine's sources", () => {
    const result = lint("packages/emulator/src", "packages/script/src")
    expect(result.stdout).toContain("0 found")
    expect(result.status).toBe(0)
  })
})
