/**
 * Every way `oracle compare` ends leaves nothing behind and ends soon: run to its verdict on fresh
 * gateways (the default) and on a shared one (--shared), stopped by SIGINT and by SIGTERM mid-run,
 * and with its stdout closed early (`| head -3`). After each: the process exited by itself with the
 * documented code, within seconds of its verdict; no gateway or fork server it started still runs;
 * no gateway port answers; no temp directory it made (HERMES_HOMEs, fork server scratch) is left.
 *
 * The scenario set holds the one that once kept the CLI alive after its verdict (a clock set to a
 * past instant, then a restart: a gateway whose faked clocks went back ignores SIGINT).
 * Each run gets a TMPDIR of its own, so what it left there is what it made.
 * Live (HERMETIC_LIVE=1): the real 0.19.0 gateway, process launcher.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { refused } from "./support.js"

const live = process.env["HERMETIC_LIVE"] === "1"
if (!live) console.log("[skip] oracle compare exits and cleans up on every path: set HERMETIC_LIVE=1 to start the real Hermes 0.19.0 gateway")

const ROOT = new URL("../../../", import.meta.url).pathname
const SCENARIOS = ["packages/diff/test/fixtures/past-clock-restart.scenario.json", "packages/diff/scenarios/chat-completions.json"]
// only when the tests run: a file whose tests are all skipped never runs its afterAll
const work = live ? mkdtempSync(join(tmpdir(), "hermetic-exit-test-")) : ""
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** How long after its verdict (or the signal) the CLI may take to be gone. */
const EXIT_WITHIN_MS = 10_000

type Ending = { readonly kind: "verdict" } | { readonly kind: "signal"; readonly signal: "SIGINT" | "SIGTERM" } | { readonly kind: "closed stdout" }

interface Ended {
  readonly code: number | null
  readonly stderr: string
  /** ms from the verdict (first stdout line) or the signal to the exit. */
  readonly tailMs: number | null
  readonly pids: ReadonlySet<number>
  readonly baseUrls: ReadonlyArray<string>
  readonly tmp: string
}

/** Pids below `root` (children, grandchildren: fork servers' gateways are grandchildren). */
const descendants = (root: number): Array<number> => {
  const parent = new Map<number, number>()
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8")
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]))
    } catch {
      // gone meanwhile
    }
  }
  const out: Array<number> = []
  const walk = (p: number) => {
    for (const [pid, pp] of parent) {
      if (pp === p) {
        out.push(pid)
        walk(pid)
      }
    }
  }
  walk(root)
  return out
}

/** Whether a pid still runs (a zombie counts as gone). */
const running = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z"
  } catch {
    return false
  }
}

const run = (flags: ReadonlyArray<string>, ending: Ending): Promise<Ended> =>
  new Promise((resolve, reject) => {
    const tmp = mkdtempSync(join(work, "tmp-"))
    const child = spawn(
      process.execPath,
      ["--conditions=@hermetic/source", "--import", "tsx", "packages/diff/src/cli/main.ts", "compare", ...SCENARIOS.flatMap((s) => ["--scenario", s]), "--out", join(tmp, "..", `out-${Date.now()}`), ...flags],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, TMPDIR: tmp } }
    )
    let stderr = ""
    let markAt: number | null = null
    const pids = new Set<number>()
    // every process the CLI starts, seen while it runs (they would be reparented once it is gone)
    const watch = setInterval(() => {
      for (const p of descendants(child.pid ?? -1)) pids.add(p)
    }, 250)
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`oracle compare did not end within 540 s; stderr:\n${stderr.slice(-3000)}`))
    }, 540_000)
    let lines = 0
    child.stdout.on("data", (chunk: Buffer) => {
      markAt ??= ending.kind === "signal" ? markAt : Date.now()
      lines += chunk.toString().split("\n").length - 1
      // what `head -3` does: read three lines, then close the pipe
      if (ending.kind === "closed stdout" && lines >= 3) child.stdout.destroy()
    })
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
      // mid-run: the first scenario compared, the second one in flight
      if (ending.kind === "signal" && markAt === null && /\n\[oracle\] 1\/\d+ /.test(stderr)) {
        markAt = Date.now()
        child.kill(ending.signal)
      }
    })
    child.on("exit", (code) => {
      clearInterval(watch)
      clearTimeout(timer)
      resolve({
        code,
        stderr,
        tailMs: markAt === null ? null : Date.now() - markAt,
        pids,
        baseUrls: [...stderr.matchAll(/gateway ready at (http:\/\/127\.0\.0\.1:\d+)/g)].map((m) => m[1] as string),
        tmp
      })
    })
  })

const expectNothingLeft = async (r: Ended, codes: ReadonlyArray<number>) => {
  const tail = r.stderr.slice(-2500)
  console.log(`exit ${String(r.code)} ${String(r.tailMs)} ms after the verdict or signal; ${r.pids.size} processes seen`)
  expect(codes, tail).toContain(r.code)
  expect(r.tailMs, `${tail}\n(no verdict or signal was seen)`).not.toBeNull()
  expect(r.tailMs as number, tail).toBeLessThan(EXIT_WITHIN_MS)
  expect(r.baseUrls.length, `${tail}\n(no gateway started)`).toBeGreaterThan(0)
  // give the kernel a moment to reap what was SIGKILLed with the CLI's last breath
  await new Promise((ok) => setTimeout(ok, 500))
  expect([...r.pids].filter(running), "processes the CLI started still run").toEqual([])
  for (const url of r.baseUrls) expect(await refused(url), `${url} still answers`).toBe(true)
  expect(readdirSync(r.tmp).filter((e) => e.startsWith("hermetic-")), "temp directories left in the run's TMPDIR").toEqual([])
}

describe.skipIf(!live)("oracle compare ends by itself and leaves nothing behind", () => {
  it("fresh gateways (the default), to its verdict", async () => {
    await expectNothingLeft(await run([], { kind: "verdict" }), [0, 1])
  }, 600_000)

  it("--shared, to its verdict: the scenarios leave sessions behind, so each is an error naming them (exit 2)", async () => {
    const r = await run(["--shared"], { kind: "verdict" })
    await expectNothingLeft(r, [2])
    expect(r.stderr).toMatch(/left the shared gateway in another state than it found it .*sessions added: /)
  }, 600_000)

  it("SIGINT mid-run: exit 130", async () => {
    await expectNothingLeft(await run([], { kind: "signal", signal: "SIGINT" }), [130])
  }, 600_000)

  it("SIGTERM mid-run: exit 130", async () => {
    await expectNothingLeft(await run(["--shared"], { kind: "signal", signal: "SIGTERM" }), [130])
  }, 600_000)

  it("stdout closed after three lines (| head -3): the run's own code", async () => {
    await expectNothingLeft(await run([], { kind: "closed stdout" }), [0, 1])
  }, 600_000)
})
