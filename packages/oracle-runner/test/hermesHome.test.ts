import { existsSync } from "node:fs"
import { readFile, rm } from "node:fs/promises"
import type { FileSystem } from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import { Effect } from "effect"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { FakeClock } from "../src/gateway/FakeClock.js"
import { type HermesHome, type HermesHomeOptions, scopedHermesHome } from "../src/gateway/hermesHome.js"
import { gatewayEnv } from "../src/gateway/gatewayEnv.js"
import { processEnv } from "../src/gateway/ProcessLauncher.js"
import type { HermesVenv } from "../src/venv/HermesVenv.js"
import { corsOriginList } from "../src/cli/upCommand.js"

/** Runs `use` on a HERMES_HOME written for `o`; the home is gone afterwards. */
const withHome = <A>(o: HermesHomeOptions, use: (h: HermesHome) => Promise<A>) =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(scopedHermesHome(o), (h) => Effect.promise(() => use(h)))).pipe(Effect.provide(NodeContext.layer)))

describe("HERMES_HOME", () => {
  it("writes config.yaml (custom provider, ≥64k context, no tools) and .env (key, loopback, port)", async () => {
    await withHome({ fakeModelBaseUrl: "http://127.0.0.1:9/v1", fakeModelId: "m", port: 12345 }, async (h) => {
      const cfg = JSON.parse(await readFile(join(h.hermesHome, "config.yaml"), "utf8")) as Record<string, Record<string, unknown>>
      expect(cfg["model"]).toMatchObject({ provider: "custom", base_url: "http://127.0.0.1:9/v1", default: "m" })
      expect(Number(cfg["model"]?.["context_length"])).toBeGreaterThanOrEqual(64_000)
      expect(cfg["platform_toolsets"]).toEqual({ api_server: [] })
      expect(cfg["memory"]).toMatchObject({ memory_enabled: false })
      const env = await readFile(join(h.hermesHome, ".env"), "utf8")
      expect(env).toContain("API_SERVER_HOST=127.0.0.1\n")
      expect(env).toContain("API_SERVER_PORT=12345\n")
      expect(/API_SERVER_KEY=(\S+)/.exec(env)?.[1]?.length).toBeGreaterThanOrEqual(16)
      const other = await withHome({ fakeModelBaseUrl: "x", fakeModelId: "m", port: 1 }, async (o) => o.apiKey)
      expect(h.apiKey).not.toBe(other)
    })
  })
})

describe("the gateway's environment", () => {
  it("points TMPDIR into the temp root, so the terminal tool's shell snapshots leave with it", async () => {
    let root = ""
    await withHome({ fakeModelBaseUrl: "x", fakeModelId: "m", port: 1 }, async (h) => {
      root = h.root
      const env = gatewayEnv({ venvBin: "/venv/bin", home: h })
      expect(env["TMPDIR"]).toBe(h.tmpDir)
      expect(h.tmpDir.startsWith(h.root)).toBe(true)
      expect(existsSync(h.tmpDir)).toBe(true)
    })
    expect(existsSync(root)).toBe(false)
  })
})

describe("the CORS origins (the differ's cors and cors-any profiles, up --cors-origins)", () => {
  const venv = { dir: "/venv" } as HermesVenv
  it("reach every launcher's environment as API_SERVER_CORS_ORIGINS: the process and fork launchers' processEnv, the container's gatewayEnv", async () => {
    for (const [origins, value] of [[["http://app.example", "https://console.example:8443"], "http://app.example,https://console.example:8443"], [["*"], "*"]] as const) {
      await withHome({ fakeModelBaseUrl: "x", fakeModelId: "m", port: 1, corsOrigins: origins }, async (h) => {
        expect(h.corsOrigins).toEqual(origins)
        expect(gatewayEnv({ venvBin: "/image/venv/bin", home: h })["API_SERVER_CORS_ORIGINS"]).toBe(value)
        expect(processEnv({ venv, home: h })["API_SERVER_CORS_ORIGINS"]).toBe(value)
      })
    }
  })

  it("are not set without origins: the gateway then refuses every browser origin", async () => {
    for (const o of [{}, { corsOrigins: [] }]) {
      await withHome({ fakeModelBaseUrl: "x", fakeModelId: "m", port: 1, ...o }, async (h) => {
        expect(processEnv({ venv, home: h })).not.toHaveProperty("API_SERVER_CORS_ORIGINS")
        expect(gatewayEnv({ venvBin: "/venv/bin", home: h })).not.toHaveProperty("API_SERVER_CORS_ORIGINS")
      })
    }
  })

  it("up --cors-origins splits on commas and trims each, dropping empty ones, as Hermes reads the variable", () => {
    expect(corsOriginList(" http://a.example , https://b.example:8443,,")).toEqual(["http://a.example", "https://b.example:8443"])
    expect(corsOriginList("*")).toEqual(["*"])
    expect(corsOriginList(" , ")).toEqual([])
  })
})

describe("FakeClock", () => {
  it("writes offsets from real time for set and advance", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hermetic-clock-"))
    const file = join(dir, "faketime.rc")
    let real = 1_000_000
    const run = <A>(e: Effect.Effect<A, never, FileSystem.FileSystem>) => Effect.runPromise(Effect.provide(e, NodeContext.layer))
    const c = await run(FakeClock.make(file, () => real))
    await run(c.set(1_003_600))
    expect(await readFile(file, "utf8")).toBe("+3600.000\n")
    await run(c.advance(86_400.5))
    expect(await readFile(file, "utf8")).toBe("+90000.500\n")
    real += 10
    expect(c.now()).toBe(1_090_010.5)
    await run(c.set(999_000))
    expect(await readFile(file, "utf8")).toBe("-1010.000\n")
    await rm(dir, { recursive: true, force: true })
  })

  it("freezes only in wall mode: an absolute time while frozen, moved by advance, running on from it after", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hermetic-clock-"))
    const file = join(dir, "faketime.rc")
    let real = 1_796_083_200.75 // 2026-12-01T00:00:00.75Z
    const run = <A, E>(e: Effect.Effect<A, E, FileSystem.FileSystem>) => Effect.runPromise(Effect.provide(e, NodeContext.layer))
    const both = await run(FakeClock.make(file, () => real))
    await expect(run(both.freeze(true))).rejects.toThrow(/cannot be frozen/)
    const c = await run(FakeClock.make(file, () => real, "wall"))
    expect(c.env("/lib/faketime.so")).toMatchObject({ FAKETIME_DONT_FAKE_MONOTONIC: "1" })
    await run(c.freeze(true))
    expect(await readFile(file, "utf8")).toBe("2026-12-01 00:00:00\n")
    real += 30
    expect(c.now()).toBe(1_796_083_200)
    await run(c.advance(90))
    expect(await readFile(file, "utf8")).toBe("2026-12-01 00:01:30\n")
    await run(c.freeze(false))
    expect(c.now()).toBe(1_796_083_290)
    real += 5
    expect(c.now()).toBeCloseTo(1_796_083_295, 6)
    await rm(dir, { recursive: true, force: true })
  })
})

describe("HERMES_HOME as a scoped resource", () => {
  it("is written through platform's FileSystem and removed when its scope closes", async () => {
    const root = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const h = yield* scopedHermesHome({ fakeModelBaseUrl: "http://127.0.0.1:9/v1", fakeModelId: "m", port: 4242 })
          const env = yield* Effect.promise(() => readFile(join(h.hermesHome, ".env"), "utf8"))
          expect(env).toContain("API_SERVER_PORT=4242\n")
          expect(existsSync(h.workDir)).toBe(true)
          return h.root
        })
      ).pipe(Effect.provide(NodeContext.layer))
    )
    expect(existsSync(root)).toBe(false)
  })
})
