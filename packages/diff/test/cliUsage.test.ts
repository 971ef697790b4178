/**
 * `oracle`: --version, every command's --help exits 0, usage errors exit 2, --json writes one
 * document that parses with its Schema, an earlier REPORT.md is refused without --force; the
 * summary table never cuts a scenario name.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { COMMANDS } from "../src/cli/args.js"
import { OracleDocument } from "../src/cli/OracleDocument.js"
import { summaryTable } from "../src/cli/summaryTable.js"
import { fixturesDir } from "../src/cassette/cassetteFiles.js"
import { cliEntry } from "../../../test/support/cliEntry.js"
import type { Evidence } from "../src/evidence/Evidence.js"

const entry = cliEntry("oracle")
const version = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version

const oracle = async (...args: Array<string>): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...entry, ...args], { timeout: 110_000 })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string }
    return { code: err.code ?? -1, stdout: err.stdout ?? "", stderr: err.stderr ?? "" }
  }
}

// each case starts a node process: a second or more of CPU, much more wall on a loaded machine
describe.concurrent("oracle CLI usage", { timeout: 120_000 }, () => {
  it("--version prints the package version", async () => {
    expect(await oracle("--version")).toEqual({ code: 0, stdout: `oracle ${version}\n`, stderr: "" })
  })

  it("--help lists every command, and each command's --help exits 0 with its usage", async () => {
    const main = await oracle("--help")
    expect(main.code).toBe(0)
    for (const command of COMMANDS) expect(main.stdout).toContain(`oracle ${command}`)
    for (const command of ["fuzz", "wire", "schema"]) {
      const r = await oracle(command, "--help")
      expect([command, r.code]).toEqual([command, 0])
      expect(r.stdout).toMatch(/Usage:/)
    }
  })

  it.each([
    [["compare", "--bogus"], "compare: --bogus is not an option of compare"],
    [["replay", "F", "--workers", "3", "--base", "x"], "--workers is not an option of replay"],
    [["fuzz", "--out", "x", "--shard", "1/2"], "--shard is not an option of fuzz"],
    [["schema", "--out", "x"], "--out is not an option of schema"]
  ])("usage error %j exits 2 and says why", async (args, why) => {
    const r = await oracle(...args)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(why)
    expect(r.stderr).toContain(`Run 'oracle ${args[0]} --help' for usage.`)
    expect(r.stdout).toBe("")
  })

  it("record: --seed without --generate is a usage error (exit 2) that says to give both, before any gateway starts", async () => {
    const r = await oracle("record", "--seed", "5")
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("--seed is the seed of --generate N")
    expect(r.stderr).not.toContain("starting the real")
  })

  it("--json writes one document that parses; a second run into the same --out is refused without --force", async () => {
    const out = mkdtempSync(join(tmpdir(), "oracle-json-"))
    const cassette = readdirSync(join(fixturesDir(), "0.19.0")).find((f) => f.startsWith("health")) ?? ""
    const args = ["compare", "--target", "cassette", "--scenario", join(fixturesDir(), "0.19.0", cassette), "--out", out, "--json"]
    try {
      const first = await oracle(...args)
      expect(first.code).toBe(0)
      const document = Schema.decodeUnknownSync(OracleDocument)(JSON.parse(first.stdout))
      expect(document).toMatchObject({ command: "compare", exitCode: 0, summary: { scenarios: 1, equal: 1 } })
      expect(first.stdout.trim().split("\n")).toHaveLength(1)
      expect(first.stderr).toContain("[oracle] 1/1")

      const again = await oracle(...args)
      expect(again.code).toBe(2)
      expect(again.stderr).toContain(`${join(out, "REPORT.md")} exists`)
      expect(again.stderr).toContain("--force")
      expect(again.stdout).toBe("")

      const forced = await oracle(...args, "--force")
      expect(forced.code).toBe(0)
      expect(Schema.decodeUnknownSync(OracleDocument)(JSON.parse(forced.stdout)).command).toBe("compare")
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
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
