/**
 * The cors and cors-any profiles reach both sides: the origins go to the oracle runner's gateway
 * options on every way the CLI starts a real gateway (shared, fresh from fork servers, fresh
 * processes, container), and to the emulator's options. The runner is replaced here by one that
 * keeps the options it was given and starts nothing; that the runner turns them into
 * API_SERVER_CORS_ORIGINS for every launcher is packages/oracle-runner/test/hermesHome.test.ts.
 */
import { Context, Effect, Exit, Layer } from "effect"
import { beforeEach, describe, expect, it, vi } from "vitest"
import { CORS_PROFILE_ORIGINS, corsOriginsFor, emulatorOptionsFor, GATEWAY_PROFILES, gatewayOptionsFor } from "../src/profile/GatewayProfile.js"
import { decodeScenarioSync } from "../src/scenario/Scenario.js"

const started = vi.hoisted(() => ({ gateways: [] as Array<Record<string, unknown>>, forkServers: [] as Array<Record<string, unknown>> }))

vi.mock("@hermetic/oracle-runner", () => {
  const refused = new Error("no gateway in this test")
  class RealGateway extends Context.Tag("test/RealGateway")<RealGateway, unknown>() {}
  return {
    RealGateway,
    RealGatewayLayer: (options: Record<string, unknown>) => {
      started.gateways.push(options)
      return Layer.die(refused)
    },
    scopedGateway: (options: Record<string, unknown>) => {
      started.gateways.push(options)
      return Effect.die(refused)
    },
    scopedGatewayForkServer: (options: Record<string, unknown>) => {
      started.forkServers.push(options)
      return Effect.succeed({ fork: () => Effect.die(refused) })
    },
    guardInterrupts: () => {}
  }
})

// loaded afresh for each test: the suite shares workers between files (isolate: false), and a file
// before this one may have loaded the real runner into the loader this would otherwise share
let realReference: (typeof import("../src/cli/referenceTarget.js"))["realReference"]

const start = (launcher: "process" | "container", profile: (typeof GATEWAY_PROFILES)[number], fresh: boolean) =>
  Effect.runPromiseExit(Effect.scoped(realReference("0.19.0", launcher, { profile, fresh })))

describe("the cors profiles", () => {
  beforeEach(async () => {
    vi.resetModules()
    realReference = (await import("../src/cli/referenceTarget.js")).realReference
    started.gateways.length = 0
    started.forkServers.length = 0
  })

  it("allow two origins (cors) or any (cors-any); the other profiles none", () => {
    expect(corsOriginsFor("cors")).toEqual(["http://app.example", "https://console.example:8443"])
    expect(corsOriginsFor("cors-any")).toEqual(["*"])
    for (const p of ["strict", "tools", "wall-clock"] as const) {
      expect(corsOriginsFor(p)).toEqual([])
      expect(gatewayOptionsFor(p)).not.toHaveProperty("corsOrigins")
      expect(emulatorOptionsFor(p)).not.toHaveProperty("corsOrigins")
    }
  })

  it.each([["cors", CORS_PROFILE_ORIGINS], ["cors-any", ["*"]]] as const)("%s: the emulator and the real gateway get the same origins", (profile, origins) => {
    expect(emulatorOptionsFor(profile)).toEqual({ corsOrigins: origins })
    expect(gatewayOptionsFor(profile)).toEqual({ corsOrigins: origins })
    expect(decodeScenarioSync({ version: 1, name: "n", profile, steps: [] }).profile).toBe(profile)
  })

  it.each([
    ["process", true, "a fresh gateway forked from a fork server"],
    ["container", true, "a fresh container"],
    ["process", false, "one shared process"],
    ["container", false, "one shared container"]
  ] as const)("--target %s (fresh %s): %s is started with the profile's origins", async (launcher, fresh, _what) => {
    for (const profile of ["cors", "cors-any", "strict"] as const) {
      started.gateways.length = 0
      const exit = await start(launcher, profile, fresh)
      expect(Exit.isFailure(exit)).toBe(true)
      expect(started.gateways.length).toBeGreaterThan(0)
      for (const options of started.gateways) {
        expect(options["launcher"]).toBe(launcher)
        if (profile === "strict") expect(options).not.toHaveProperty("corsOrigins")
        else expect(options["corsOrigins"]).toEqual(corsOriginsFor(profile))
      }
    }
  })

  it("a gateway forked from a fork server gets the origins itself (its environment is made per fork)", async () => {
    await start("process", "cors", true)
    expect(started.forkServers.length).toBe(2)
    expect(started.gateways[0]?.["forkServer"]).toBeDefined()
    expect(started.gateways[0]?.["corsOrigins"]).toEqual(CORS_PROFILE_ORIGINS)
  })
})
