/**
 * The oracle runner is an optional peer, loaded only by the live targets: without it they fail
 * with OracleRunnerMissing, whose message names the install command at the declared peer version;
 * a runner that is there but broken (one of its own dependencies missing) is not reported as absent.
 * The consumer test (test/consumer) shows the same from the packed tarballs without the runner installed.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Cause, Effect, Exit, Option } from "effect"
import { beforeEach, describe, expect, it, onTestFinished, vi } from "vitest"
import type { OracleRunner } from "../src/target/oracleRunner.js"

type Loader = typeof import("../src/target/oracleRunner.js")
let loader: Loader
// a fresh instance of the loader's module per test: the suite shares workers between files
// (isolate: false), and a file before this one may have loaded a runner, mocked or real, into it
beforeEach(async () => {
  vi.resetModules()
  loader = await import("../src/target/oracleRunner.js")
})

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  peerDependencies: Record<string, string>
  peerDependenciesMeta: Record<string, { optional: boolean }>
  dependencies: Record<string, string>
}

/** The error Node's ESM loader raises for a package that is not installed. */
const notFound = (name: string) =>
  Object.assign(new Error(`Cannot find package '${name}' imported from /somewhere/node_modules/@hermetic/diff/dist/target/oracleRunner.js`), { code: "ERR_MODULE_NOT_FOUND" })

const srcDir = fileURLToPath(new URL("../src", import.meta.url))
const sources = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []))

describe("the oracle runner, loaded on demand", () => {
  it("no source of @hermetic/diff imports it but as types, except the loader's dynamic import", () => {
    const valueImports = sources(srcDir).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[\w$*\s,]|\{[^}]*\})*from\s+"@hermetic\/oracle-runner"/gm)].map((m) => `${file.slice(srcDir.length)}: ${m[0].trim()}`)
    )
    expect(valueImports).toEqual([])
    const dynamic = sources(srcDir).filter((file) => readFileSync(file, "utf8").includes('import("@hermetic/oracle-runner")')).map((f) => f.slice(srcDir.length))
    expect(dynamic).toEqual(["/target/oracleRunner.ts"])
  })

  it("is an optional peer of @hermetic/diff, not a dependency", () => {
    expect(manifest.dependencies["@hermetic/oracle-runner"]).toBeUndefined()
    expect(manifest.peerDependencies["@hermetic/oracle-runner"]).toMatch(/^\^?\d+\.\d+\.\d+$/)
    expect(manifest.peerDependenciesMeta["@hermetic/oracle-runner"]).toEqual({ optional: true })
  })

  it("missing, a live target fails with the command that installs the declared version", async () => {
    const exit = await Effect.runPromiseExit(loader.loadOracleRunner("--target process", () => Promise.reject(notFound("@hermetic/oracle-runner"))))
    expect(Exit.isFailure(exit)).toBe(true)
    const error = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.failureOption(exit.cause)) : undefined
    const version = (manifest.peerDependencies["@hermetic/oracle-runner"] ?? "").replace(/^\^/, "")
    expect(error?._tag).toBe("OracleRunnerMissing")
    expect(error?.message).toContain("--target process starts the real Hermes gateway through @hermetic/oracle-runner, which is not installed")
    expect(error?.message).toContain(`npm i -D @hermetic/oracle-runner@${version}`)
    expect(loader.installCommand("^1.2.3")).toBe("npm i -D @hermetic/oracle-runner@1.2.3")
    expect(loader.loadedOracleRunner()).toBeUndefined()
  })

  it("a runner whose own dependency is missing is a broken install, not a missing runner", async () => {
    expect(loader.isRunnerMissing(notFound("testcontainers"))).toBe(false)
    const exit = await Effect.runPromiseExit(loader.loadOracleRunner("--target container", () => Promise.reject(notFound("testcontainers"))))
    expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
  })

  it("installed, it loads once and stays loaded (the bench reads container CPU from it)", async () => {
    // loading puts the runner's interrupt guard in; this worker takes its own signal handling back afterwards
    const before = { SIGINT: process.listeners("SIGINT"), SIGTERM: process.listeners("SIGTERM") }
    onTestFinished(() => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) for (const l of process.listeners(signal)) if (!before[signal].includes(l)) process.off(signal, l)
    })
    let imports = 0
    const importer = () => (imports++, import("@hermetic/oracle-runner") as Promise<OracleRunner>)
    const first = await Effect.runPromise(loader.loadOracleRunner("--target process", importer))
    const second = await Effect.runPromise(loader.loadOracleRunner("--target process", importer))
    expect(imports).toBe(1)
    expect(second).toBe(first)
    expect(loader.loadedOracleRunner()).toBe(first)
    expect(typeof first.scopedGateway).toBe("function")
    expect(process.listeners("SIGINT").length).toBe(before.SIGINT.length + 1)
  })
})
