/**
 * The emulator's import graph read from its source text, and the rules its layout keeps
 * (test/architecture.test.ts states them; docs/architecture.md draws the result). Pure functions
 * of a graph, so a test can feed them a made-up graph that breaks each rule.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative, resolve, sep } from "node:path"

/** Each file (relative to src/, "/"-separated) and the files it imports, relative imports only. */
export type ImportGraph = ReadonlyMap<string, ReadonlyArray<string>>

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  )

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[\w$*\s{},]*?\bfrom\s+"(\.[^"]+)"|import\("(\.[^"]+)"\)/g

/** Reads every .ts file under `src` and its relative imports (`import type` included: a cycle of types is a cycle). */
export const readImportGraph = (src: string): ImportGraph => {
  const key = (file: string) => relative(src, file).split(sep).join("/")
  return new Map(
    sourceFiles(src).map((file) => {
      const text = readFileSync(file, "utf8")
      const targets = [...text.matchAll(IMPORT)].map((m) => key(resolve(join(file, ".."), (m[1] ?? m[2] ?? "").replace(/\.js$/, ".ts"))))
      return [key(file), [...new Set(targets)]] as const
    })
  )
}

/**
 * The foundation, bottom up: each folder and the foundation folders it may import besides itself.
 * services, journal and http are one layer (the request path and the services it reads).
 */
export const FOUNDATION: Readonly<Record<string, ReadonlyArray<string>>> = {
  python: [],
  version: [],
  namespace: [],
  config: ["python", "version"],
  services: ["python", "version", "config", "journal", "http"],
  journal: ["python", "version", "config", "services", "http"],
  http: ["python", "version", "config", "services", "journal", "namespace"],
  content: ["python", "http"],
  idempotency: ["python", "services"],
  agent: ["python", "version", "config", "services", "journal", "http", "content"]
}

/**
 * The seams: the only files of one feature another feature may import, and who may. Every other
 * file of a feature is its own.
 */
export const SEAMS: Readonly<Record<string, ReadonlyArray<string>>> = {
  // every route that plays an agent turn records it in the sessions store once it settles
  "features/sessions/SessionTranscript.ts": ["chat", "jobs", "responses", "runs"],
  // a cron job's run ends its session and titles it
  "features/sessions/SessionStore.ts": ["jobs"],
  // the chat session header and POST /api/sessions share upstream's one session-id guard
  "features/sessions/SessionIds.ts": ["chat"],
  // a run may continue a stored response (previous_response_id)
  "features/responses/ResponseStore.ts": ["runs"],
  // chat completions answer with the model /v1/models advertises
  "features/discovery/Models.ts": ["chat"],
  // readiness and the control plane's state count runs
  "features/runs/Runs.ts": ["discovery", "admin"],
  "features/runs/SettledRuns.ts": ["admin"],
  // the control plane's cron tick and clock jumps fire due jobs
  "features/jobs/JobTicker.ts": ["admin"]
}

export type Layer =
  | { readonly kind: "foundation"; readonly folder: string }
  | { readonly kind: "feature"; readonly feature: string }
  | { readonly kind: "composition" }

/** Where a file sits: a foundation folder, a feature folder, or the composition above both (src/*.ts, record, snapshot, cli, testing). */
export const layerOf = (file: string): Layer => {
  const parts = file.split("/")
  if (parts[0] === "features" && parts.length > 2) return { kind: "feature", feature: parts[1] ?? "" }
  if (parts.length > 1 && parts[0] !== undefined && parts[0] in FOUNDATION) return { kind: "foundation", folder: parts[0] }
  return { kind: "composition" }
}

/** Every import that breaks the layering, as "from → to (why)". */
export const layerViolations = (graph: ImportGraph, seams = SEAMS): Array<string> =>
  [...graph].flatMap(([from, targets]) => {
    const here = layerOf(from)
    return targets.flatMap((to) => {
      const there = layerOf(to)
      if (here.kind === "composition") return []
      if (there.kind === "composition") return [`${from} → ${to} (imports the composition above it)`]
      if (here.kind === "foundation") {
        if (there.kind === "feature") return [`${from} → ${to} (a foundation imports a feature)`]
        return there.folder === here.folder || (FOUNDATION[here.folder] ?? []).includes(there.folder)
          ? []
          : [`${from} → ${to} (${here.folder}/ may not import ${there.folder}/)`]
      }
      if (there.kind === "foundation" || there.feature === here.feature) return []
      return (seams[to] ?? []).includes(here.feature) ? [] : [`${from} → ${to} (not a seam of features/${there.feature}/ open to ${here.feature})`]
    })
  })

/** The import cycles: each strongly connected set of two or more files (or a file importing itself), sorted. */
export const importCycles = (graph: ImportGraph): Array<Array<string>> => {
  // Tarjan's algorithm, iterative: the graph is a few hundred files, recursion would do too
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: Array<string> = []
  const cycles: Array<Array<string>> = []
  let next = 0
  for (const root of graph.keys()) {
    if (index.has(root)) continue
    const work: Array<[string, number]> = [[root, 0]]
    index.set(root, next), low.set(root, next++), stack.push(root), onStack.add(root)
    while (work.length > 0) {
      const top = work[work.length - 1]!
      const [node, i] = top
      const targets = (graph.get(node) ?? []).filter((t) => graph.has(t))
      if (i < targets.length) {
        top[1] = i + 1
        const t = targets[i]!
        if (!index.has(t)) {
          index.set(t, next), low.set(t, next++), stack.push(t), onStack.add(t)
          work.push([t, 0])
        } else if (onStack.has(t)) low.set(node, Math.min(low.get(node)!, index.get(t)!))
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent !== undefined) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(node)!))
      if (low.get(node) === index.get(node)) {
        const scc: Array<string> = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          scc.push(member)
        } while (member !== node)
        if (scc.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(scc.sort())
      }
    }
  }
  return cycles.sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""))
}
