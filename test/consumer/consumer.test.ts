/**
 * The packages as a stranger gets them: build, `npm pack` every workspace, install the tarballs
 * into a fresh project outside the repository, then use them there with plain node (no tsx):
 * (a) a plain ESM program with startEmulator(), (b) an Effect program on the Layer under
 * @effect/vitest, (c) every CLI's --version and --help, (e) the recorded cassettes shipped in
 * @hermetic/diff replayed against the installed emulator, (d) tsc --strict, NodeNext,
 * erasableSyntaxOnly over the consumer's TypeScript (skipLibCheck, as most projects set it: the
 * consumer's code is checked against the shipped .d.ts, not Effect's own declarations). tsx is not installed there, so the bins
 * prove they need no TypeScript loader.
 *
 * Offline: a tarball is unpacked where `npm install` would put it, and the registry packages it
 * declares (dependencies and peers, plus the consumer's vitest/typescript) are linked from the
 * repository's node_modules — only declared names are visible at the consumer's top level.
 */
import { execFile } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, existsSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const repoModules = join(repo, "node_modules")
const node = process.execPath

interface Manifest {
  readonly name: string
  readonly version: string
  readonly bin?: Record<string, string>
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
}
interface Installed {
  readonly manifest: Manifest
  readonly dir: string
}

let project = ""
const installed: Array<Installed> = []

/** Runs a command in the consumer project; async, so the test worker stays responsive. */
const run = (file: string, args: ReadonlyArray<string>, cwd = project) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
    execFile(file, [...args], { cwd, encoding: "utf8", timeout: 240_000, env: { ...process.env, NODE_OPTIONS: "" } }, (error, stdout, stderr) =>
      done({ status: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr }))
  })

/** Async, so the test worker keeps answering vitest while a build or a pack takes minutes. */
const exec = promisify(execFile)

beforeAll(async () => {
  // The build the tarballs ship (incremental: seconds when dist/ is current).
  await exec(node, [join(repo, "scripts", "build.mjs")], { cwd: repo, maxBuffer: 64 * 1024 * 1024 })
  const root = mkdtempSync(join(tmpdir(), "hermetic-consumer-"))
  const packs = join(root, "packs")
  mkdirSync(packs)
  const packed = JSON.parse(
    (await exec("npm", ["pack", "--workspaces", "--json", "--pack-destination", packs], { cwd: repo, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })).stdout
  ) as Array<{ filename: string; name: string }>

  project = join(root, "project")
  cpSync(join(repo, "test", "consumer", "project"), project, { recursive: true })
  const modules = join(project, "node_modules")
  mkdirSync(modules)
  for (const p of packed) {
    const dir = join(modules, p.name)
    mkdirSync(dir, { recursive: true })
    await exec("tar", ["-xzf", join(packs, p.filename.replace(/^@[^/]+\//, "").replace(/\//g, "-")), "-C", dir, "--strip-components=1"])
    installed.push({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest })
  }
  const local = new Set(installed.map((i) => i.manifest.name))
  const wanted = new Set(["vitest", "@effect/vitest", "typescript", "@types/node", "effect"])
  for (const { manifest } of installed) {
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) if (!local.has(dep)) wanted.add(dep)
  }
  for (const dep of wanted) {
    mkdirSync(dirname(join(modules, dep)), { recursive: true })
    symlinkSync(join(repoModules, dep), join(modules, dep), "dir")
  }
}, 300_000)

afterAll(() => {
  if (project !== "") rmSync(dirname(project), { recursive: true, force: true })
})

describe("the packed packages in a fresh project", () => {
  it("ship dist/ with .d.ts and the metadata a registry needs; effect and @effect/* are peers", () => {
    expect(installed.map((i) => i.manifest.name).sort()).toEqual(
      readdirSync(join(repo, "packages")).filter((d) => existsSync(join(repo, "packages", d, "package.json")))
        .map((d) => (JSON.parse(readFileSync(join(repo, "packages", d, "package.json"), "utf8")) as Manifest).name).sort()
    )
    for (const { dir, manifest } of installed) {
      const m = manifest as Manifest & Record<string, unknown>
      expect(m["private"], manifest.name).toBeUndefined()
      expect(m["license"], manifest.name).toBeTypeOf("string")
      expect(m["engines"], manifest.name).toBeDefined()
      expect(m["repository"], manifest.name).toBeDefined()
      expect(existsSync(join(dir, "dist", "index.js")), manifest.name).toBe(true)
      expect(existsSync(join(dir, "dist", "index.d.ts")), manifest.name).toBe(true)
      expect(Object.keys(manifest.dependencies ?? {}).filter((d) => d === "effect" || d.startsWith("@effect/")), manifest.name).toEqual([])
      expect(manifest.peerDependencies?.["effect"], manifest.name).toMatch(/^\^3\./)
    }
  })

  it("(a) a plain Node ESM program starts the emulator, scripts a reply and reads it back over HTTP", async () => {
    const r = await run(node, ["plain.mjs"])
    expect(r.stderr).toBe("")
    expect(JSON.parse(r.stdout)).toEqual({ script: 200, status: 200, content: "Hello from a tarball" })
  }, 120_000)

  it("(b) an Effect program on the emulator's Layer passes under @effect/vitest", async () => {
    const r = await run(node, [join(project, "node_modules", "vitest", "vitest.mjs"), "run", "--root", project, "layer.spec.ts"])
    expect(r.stdout + r.stderr).toMatch(/1 passed/)
    expect(r.status).toBe(0)
  }, 120_000)

  it("(c) every CLI answers --version and --help with plain node", async () => {
    const bins = installed.flatMap(({ dir, manifest }) => Object.entries(manifest.bin ?? {}).map(([name, file]) => ({ name, file: join(dir, file), version: manifest.version })))
    expect(bins.map((b) => b.name).sort()).toEqual(["hermes-emulator", "oracle", "oracle-runner"])
    for (const bin of bins) {
      const version = await run(node, [bin.file, "--version"])
      expect({ bin: bin.name, status: version.status, out: version.stdout.trim() }, version.stderr).toEqual({ bin: bin.name, status: 0, out: `${bin.name} ${bin.version}` })
      const help = await run(node, [bin.file, "--help"])
      expect({ bin: bin.name, status: help.status }, help.stderr).toEqual({ bin: bin.name, status: 0 })
      expect(help.stdout).toMatch(/usage/i)
    }
  }, 120_000)

  it("(e) the shipped 0.19.0 cassettes replay against the installed emulator, outside the repository", async () => {
    const diff = installed.find((i) => i.manifest.name === "@hermetic/diff")
    expect(diff).toBeDefined()
    if (diff === undefined) return
    const oracle = join(diff.dir, diff.manifest.bin?.["oracle"] ?? "")
    const shipped = readdirSync(join(diff.dir, "fixtures", "0.19.0")).filter((f) => f.endsWith(".json"))
    expect(shipped).toEqual(readdirSync(join(repo, "fixtures", "0.19.0")).filter((f) => f.endsWith(".json")))
    // every strict-profile cassette, found by the package itself (no file named); evidence where asked
    const compare = await run(node, [oracle, "compare", "--target", "cassette", "--out", join(project, "evidence")])
    expect(compare.stdout, compare.stderr).toMatch(/\b0 divergent, 0 errors\b/)
    expect(compare.status, compare.stderr).toBe(0)
    expect(existsSync(join(project, "evidence", "0.19.0-cassette-vs-emulator-inprocess.json"))).toBe(true)
    // one cassette named by its installed path, as the README's replay command does
    const replay = await run(node, [oracle, "replay", join(diff.dir, "fixtures", "0.19.0", shipped[0] ?? ""), "--target", "cassette"])
    expect(replay.stdout, replay.stderr).toMatch(/\b0 divergent, 0 errors\b/)
    expect(replay.status, replay.stderr).toBe(0)
  }, 180_000)

  it("(d) tsc --strict with NodeNext and erasableSyntaxOnly type-checks the consumer", async () => {
    const r = await run(node, [join(project, "node_modules", "typescript", "bin", "tsc"), "-p", project])
    expect(r.stdout + r.stderr).toBe("")
    expect(r.status).toBe(0)
  }, 270_000)
})
