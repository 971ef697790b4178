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
 * (a)–(e) are offline: a tarball is unpacked where `npm install` would put it, and the registry
 * packages it declares (dependencies and peers, plus the consumer's vitest/typescript) are linked
 * from the repository's node_modules — only declared names are visible at the consumer's top level.
 *
 * Then every README's fenced blocks run as written (runReadme.ts; the registry for the peers), one
 * fresh project per README: its install size is checked against the figure it states, the diff's
 * offline install against testcontainers/execa and its live targets' message, and the emulator
 * against a missing better-sqlite3 addon.
 */
import { execFile } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, existsSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fencedBlocks, type Packed, shellCommands, statedInstallCount } from "./readmeBlocks.js"
import { readmeProjects, runReadme, strangerEnv } from "./runReadme.js"

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
/** The tarballs as npm packed them (for the README blocks' installs). */
let tarballs: Array<Packed> = []

/** Runs a command in the consumer project; async, so the test worker stays responsive. */
const run = (file: string, args: ReadonlyArray<string>, cwd = project) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
    execFile(file, [...args], { cwd, encoding: "utf8", timeout: 240_000, env: { ...strangerEnv() } }, (error, stdout, stderr) =>
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
  ) as Array<{ filename: string; name: string; version: string }>
  tarballs = packed.map((p) => ({ name: p.name, version: p.version, tarball: join(packs, p.filename.replace(/^@[^/]+\//, "").replace(/\//g, "-")) }))

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

const readmeFiles = ["README.md", ...readdirSync(join(repo, "packages")).map((d) => join("packages", d, "README.md")).filter((f) => existsSync(join(repo, f)))]

describe("every README's blocks, as written, from the tarballs in a fresh project (network: the registry for the peers)", () => {
  it.each(readmeFiles)("%s", async (file) => {
    const markdown = readFileSync(join(repo, file), "utf8")
    const blocks = fencedBlocks(markdown)
    expect(blocks.filter((b) => b.mark.kind === "unmarked").map((b) => b.line), `${file}: blocks neither run nor excluded with a reason`).toEqual([])
    const result = await runReadme(file, markdown, tarballs, join(dirname(project), "readmes"))
    const failed = result.runs.filter((r) => r.status !== 0).map((r) => `block at line ${r.block}: ${r.command}\nexit ${r.status}\n${r.output.slice(-3000)}`)
    expect(failed, file).toEqual([])
    expect(result.missing, file).toEqual([])
    expect(result.runs.length, file).toBe(blocks.flatMap((b) => (b.mark.kind !== "run" ? [] : b.mark.runner === "shell" ? shellCommands(b.body) : [b.body])).length)
    const stated = statedInstallCount(markdown)
    if (file === "README.md") return // the repository's own README installs no package
    // caret ranges resolve to newer releases over time: the stated figure holds within a tenth
    process.stdout.write(`${file}: npm added ${result.added} packages (README states ${stated})\n`)
    expect(stated, `${file} states no install size`).toBeTypeOf("number")
    expect(Math.abs((result.added ?? Number.NaN) - (stated ?? 0)), `${file}: README says ${stated} packages, npm added ${result.added}`).toBeLessThanOrEqual(Math.ceil((stated ?? 0) / 10))
  }, 1_200_000)

  it("@hermetic/diff, installed as its README says, has no testcontainers or execa; schema runs; each live target names the install it needs", async () => {
    const dir = readmeProjects.get("packages/diff/README.md")
    expect(dir).toBeDefined()
    if (dir === undefined) return
    for (const absent of ["testcontainers", "execa", "@hermetic/oracle-runner"]) expect(existsSync(join(dir, "node_modules", absent)), absent).toBe(false)
    const sh = (command: string) => run("bash", ["-c", command], dir)
    const schema = await sh("npx oracle schema")
    expect(schema.status, schema.stderr).toBe(0)
    expect(schema.stdout).toMatch(/evidence\.schema\.json/)
    const version = tarballs.find((t) => t.name === "@hermetic/oracle-runner")?.version
    for (const live of ["npx oracle compare --target process --out live", "npx oracle compare --target container --out live", "npx oracle fuzz --count 1 --out fuzz", "npx oracle wire --out wire"]) {
      const r = await sh(live)
      expect({ live, status: r.status }).toEqual({ live, status: 2 })
      expect(r.stderr, live).toContain(`npm i -D @hermetic/oracle-runner@${version}`)
    }
  }, 300_000)

  it("the emulator without better-sqlite3's addon (a pruned install) says what happened and what to run", async () => {
    const dir = readmeProjects.get("packages/emulator/README.md")
    expect(dir).toBeDefined()
    if (dir === undefined) return
    // better-sqlite3 13 loads prebuilds/<platform>-<arch>.node with no install script, so
    // --ignore-scripts changes nothing; a file missing from the package is what can happen
    const addon = join(dir, "node_modules", "better-sqlite3", "prebuilds", `${process.platform}-${process.arch}.node`)
    expect(existsSync(addon), addon).toBe(true)
    renameSync(addon, `${addon}.moved`)
    try {
      const r = await run("bash", ["-c", "npx hermes-emulator serve --port 0 --api-key test-key-0123456789"], dir)
      expect(r.status).not.toBe(0)
      expect(r.stderr).toContain("better-sqlite3's native addon could not be loaded")
      expect(r.stderr).toContain("npm rebuild better-sqlite3")
    } finally {
      renameSync(`${addon}.moved`, addon)
    }
  }, 120_000)
})
