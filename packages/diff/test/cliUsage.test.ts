/** `oracle`: --version, every command's --help exits 0, usage errors exit 2; the summary table never cuts a scenario name. */
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { summaryTable } from "../src/cli/summaryTable.js"
import type { Evidence } from "../src/evidence/Evidence.js"

const main = new URL("../src/cli/main.ts", import.meta.url).pathname
const version = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version

const oracle = async (...args: Array<string>): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--conditions=@hermetic/source", "--import", "tsx", main, ...args], { timeout: 110_000 })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string }
    return { code: err.code ?? -1, stdout: err.stdout ?? "", stderr: err.stderr ?? "" }
  }
}

// each case starts node + tsx over the sources: seconds alone, much more on a loaded machine
describe("oracle CLI usage", { timeout: 120_000 }, () => {
  it("--version prints the package version", async () => {
    expect(await oracle("--version")).toEqual({ code: 0, stdout: `oracle ${version}\n`, stderr: "" })
  })

  it.each(["compare", "schema"])("%s --help exits 0 with a usage text", async (command) => {
    const r = await oracle(command, "--help")
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Usage:/)
  })

  it.each([[["compare", "--bogus"]]])("usage error %j exits 2", async (args) => {
    const r = await oracle(...args)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("Run 'oracle --help' for usage.")
  })
})

describe("summary table", () => {
  it("prints long scenario names whole", () => {
    const names = ["runs: a held run is stopped while its approval is pending, then released — variant A", "runs: a held run is stopped while its approval is pending, then released — variant B"]
    const evidence = {
      scenarios: names.map((name) => ({ name, verdict: "equal", steps: [], differences: [] })),
      summary: {
        scenarios: 2, equal: 2, tolerated: 0, divergent: 0, errors: 0, steps: 0, exchanges: 0,
        differences: { divergence: 0, registered: 0, noise: 0 }, scenariosPerSecond: { reference: 1, candidate: 1 }
      }
    } as unknown as Evidence
    const table = summaryTable(evidence)
    for (const name of names) expect(table).toContain(name)
  })
})
