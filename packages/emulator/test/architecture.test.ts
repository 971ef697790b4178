/**
 * The emulator's structure, checked from its source text (cheap: no build, no server).
 *
 * - Layers (test/importGraph.ts): the foundation (python, version, namespace, config,
 *   services/journal/http, content, idempotency, agent) imports no feature and nothing above it;
 *   a feature (src/features/<feature>/) imports the foundation, and another feature only through
 *   a listed seam; the composition above (src/*.ts, record, snapshot, cli, testing) may import all.
 * - No import cycle, computed from the import graph (`import type` counts).
 * - Runs have one owner: the `Runs` service hands out each process' `features/runs/ProcessRuns.ts`,
 *   whose run state sits in `#private` fields, and no file outside `features/runs/` names a run map
 *   (as GatewayState's public maps were named before).
 * - The control plane is routes of the one table (test/controlPlaneRules.ts): every /__admin route
 *   declares `auth: "admin"`, and no file but App.ts dispatches a /__admin path, through the table.
 * - No generator function is made per call, and no function literal is assigned to a property
 *   (scripts/retention-lint.mjs): both keep a request alive until a full collection.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative, sep } from "node:path"
import { describe, expect, it } from "vitest"
import { FOUNDATION, importCycles, layerViolations, readImportGraph, SEAMS } from "./importGraph.js"
import { adminAuthViolations, adminDispatchOutsideTable } from "./controlPlaneRules.js"
import { ADMIN_ROUTES, routesFor, routeTable } from "../src/RouteTable.js"
import { features, PINS } from "../src/version/Pins.js"

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

  it("ProcessRuns keeps every map and set of run state in a #private field", () => {
    const owner = readFileSync(join(src, "features", "runs", "ProcessRuns.ts"), "utf8")
    const fields = [...owner.matchAll(/^ {2}(readonly )?([#\w]+)(?:: [^=\n]+)? = new (Map|Set)\b/gm)].map((m) => m[2] ?? "")
    expect(fields.length).toBeGreaterThanOrEqual(5)
    expect(fields.filter((name) => !name.startsWith("#"))).toEqual([])
  })

  it("the process memory below runs/ holds no run map", () => {
    const process = readFileSync(join(src, "services", "GatewayProcess.ts"), "utf8")
    expect(process).not.toMatch(/\b\w*[Rr]un\w*\s*=\s*new (Map|Set)\b/)
  })
})

describe("the control plane is routes of the one table", () => {
  const sources = new Map(files.map((f) => [relative(src, f).split(sep).join("/"), readFileSync(f, "utf8")] as const))

  it("every /__admin route declares auth \"admin\", on every pin, and upstream's routes hold none", () => {
    expect(ADMIN_ROUTES.length).toBeGreaterThanOrEqual(5)
    for (const pin of PINS) {
      expect(adminAuthViolations(routeTable(features(pin)))).toEqual([])
      expect(routesFor(features(pin)).filter((r) => r.path.startsWith("/__admin"))).toEqual([])
    }
  })

  it("no /__admin path is dispatched outside the route table", () => {
    expect(adminDispatchOutsideTable(sources)).toEqual([])
  })

  it("the rules catch a route without auth \"admin\" and a dispatcher beside the table", () => {
    expect(adminAuthViolations([
      { id: "admin.x", method: "POST", path: "/__admin/x", auth: "bearer" },
      { id: "y", method: "GET", path: "/v1/y", auth: "admin" },
      { id: "admin.ok", method: "GET", path: "/__admin/ok", auth: "admin" }
    ])).toEqual([
      "admin.x (POST /__admin/x) is under /__admin with auth \"bearer\"",
      "y (GET /v1/y) has auth \"admin\" outside /__admin"
    ])
    // the old dispatcher, revived beside a real command file, and a path check in a real foundation file
    const revived = new Map(sources)
    revived.set("features/admin/MoveClock.ts", `${sources.get("features/admin/MoveClock.ts")}\nswitch (route) { case "POST /clock": break }\n`)
    revived.set("http/Middleware.ts", `${sources.get("http/Middleware.ts")}\nexport const admin = (p: string) => isAdminPath(p) || p === "/__admin/reset"\n`)
    expect(adminDispatchOutsideTable(revived)).toEqual([
      "features/admin/MoveClock.ts: switches on a method and path",
      "http/Middleware.ts: tests for the /__admin prefix (only App.ts dispatches it, through the table)",
      "http/Middleware.ts: names a /__admin path outside the table (features/admin/AdminRoutes.ts)"
    ])
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
