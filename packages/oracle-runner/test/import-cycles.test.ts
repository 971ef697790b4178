/** The runner's sources import one another without a cycle (the graph reader is the emulator's: test/importGraph.ts). */
import { describe, expect, it } from "vitest"
import { importCycles, readImportGraph } from "../../emulator/test/importGraph.js"

const graph = readImportGraph(new URL("../src/", import.meta.url).pathname)

describe("the oracle runner's imports", () => {
  it("reads its files, the gateway's among them", () => {
    expect(graph.get("gateway/GatewayResource.ts")).toContain("gateway/Gateway.ts")
  })

  it("have no cycle", () => {
    expect(importCycles(graph)).toEqual([])
  })
})
