/** The container launcher's CPU weight (nice → CFS weight) and its orphan rule, without an engine. */
import { describe, expect, it } from "vitest"
import { weightOfNice } from "../src/container/cpuWeight.js"
import { preloadMounts } from "../src/container/ContainerLauncher.js"
import { ownerGone } from "../src/container/orphans.js"

describe("gateway container CPU weight", () => {
  it("is the kernel's weight of the runner's nice level", () => {
    expect(weightOfNice(0)).toBe(1024)
    expect(weightOfNice(15)).toBe(36)
    expect(weightOfNice(19)).toBe(15)
    expect(weightOfNice(-20)).toBe(88761)
    // each nice step is about 1.25× (the kernel's 10 % of CPU per step)
    for (let n = -19; n <= 19; n++) {
      const step = weightOfNice(n - 1) / weightOfNice(n)
      expect(step).toBeGreaterThan(1.19)
      expect(step).toBeLessThan(1.3)
    }
  })
  it("clamps nice levels outside -20 … 19", () => {
    expect(weightOfNice(40)).toBe(15)
    expect(weightOfNice(-40)).toBe(88761)
  })
})

describe("orphaned gateway containers", () => {
  const boot = "boot-a"
  it("are those whose runner, on this boot, no longer runs", () => {
    expect(ownerGone({ pid: "4242", boot }, boot, () => false)).toBe(true)
    expect(ownerGone({ pid: "4242", boot }, boot, () => true)).toBe(false)
  })
  it("are never decided for another boot, or without a pid", () => {
    expect(ownerGone({ pid: "4242", boot: "boot-b" }, boot, () => false)).toBe(false)
    expect(ownerGone({ pid: "", boot }, boot, () => false)).toBe(false)
    expect(ownerGone({ pid: "0", boot }, boot, () => false)).toBe(false)
  })
  it("counts this very process as running", () => {
    expect(ownerGone({ pid: String(process.pid), boot }, boot)).toBe(false)
  })
})

describe("preloaded libraries in a gateway container", () => {
  it("mounts the runner's own (the clock shim in the cache), not the image's libfaketime under /usr", () => {
    expect(preloadMounts("/root/.cache/hermetic/shim/sem_clockwait.so /usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1")).toEqual([
      { source: "/root/.cache/hermetic/shim/sem_clockwait.so", target: "/root/.cache/hermetic/shim/sem_clockwait.so", mode: "ro" }
    ])
    expect(preloadMounts(undefined)).toEqual([])
  })
})
