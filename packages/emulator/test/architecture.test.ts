/**
 * The emulator's structure, checked from its source text (cheap: no build, no server).
 *
 * - Layers: the foundation (python, version, config, then services/journal/http) imports no
 *   feature folder (runs, sessions, jobs, responses, chat, agent, routes, admin, …). A feature may
 *   import the foundation, never the other way round.
 * - Runs have one owner: run state lives in `runs/Runs.ts` in `#private` fields, and no file
 *   outside `runs/` names a run map (as GatewayState's public maps were named before).
 * - No generator function is made per call, and no function literal is assigned to a property
 *   (scripts/retention-lint.mjs): both keep a request alive until a full collection.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative, resolve, sep } from "node:path"
import { describe, expect, it } from "vitest"

const src = new URL("../src/", import.meta.url).pathname

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  )

/** The top folder of src/ a file is in ("" for src/ itself). */
const folderOf = (file: string): string => {
  const parts = relative(src, file).split(sep)
  return parts.length > 1 ? (parts[0] ?? "") : ""
}

/** The folders a file's relative imports land in (import/export … from "…" and import("…")). */
const importedFolders = (file: string): Array<string> => {
  const text = readFileSync(file, "utf8")
  const pattern = /(?:^|\n)\s*(?:import|export)\s[\w$*\s{},]*?\bfrom\s+"(\.[^"]+)"|import\("(\.[^"]+)"\)/g
  return [...text.matchAll(pattern)].map((m) => folderOf(resolve(join(file, ".."), m[1] ?? m[2] ?? "")))
}

/** Each foundation folder and the folders it may import (besides itself). */
const FOUNDATION: Record<string, ReadonlyArray<string>> = {
  python: [],
  version: [],
  config: ["python", "version"],
  // services, journal and http are one layer: the request path and the services it reads
  services: ["python", "version", "config", "journal", "http"],
  journal: ["python", "version", "config", "services", "http"],
  http: ["python", "version", "config", "services", "journal"]
}

const files = sourceFiles(src)

describe("emulator layers", () => {
  it("finds the foundation's files", () => {
    for (const folder of Object.keys(FOUNDATION)) expect(files.some((f) => folderOf(f) === folder)).toBe(true)
  })

  it.each(Object.entries(FOUNDATION))("%s imports no layer above it", (folder, allowed) => {
    const upward = files
      .filter((f) => folderOf(f) === folder)
      .flatMap((f) => importedFolders(f).filter((to) => to !== folder && !allowed.includes(to)).map((to) => `${relative(src, f)} → ${to}/`))
    expect(upward).toEqual([])
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
