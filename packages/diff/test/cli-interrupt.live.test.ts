/**
 * `oracle compare` stopped with SIGINT (Ctrl-C) in the middle of a comparison: the CLI runs on
 * NodeRuntime.runMain, so the signal interrupts the comparison and closes its scope. Nothing may be
 * left behind: no gateway answering on its port, no gateway container, no temp HERMES_HOME; exit 130.
 * Live (HERMETIC_LIVE=1): the process launcher always, the container launcher where an engine runs.
 */
import { execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, dirname, join } from "node:path"
import { probeEngine } from "@hermetic/oracle-runner"
import { afterAll, describe, expect, it } from "vitest"
import { refused } from "./support.js"

const live = process.env["HERMETIC_LIVE"] === "1"
const engine = live ? await probeEngine() : { ok: false as const, reason: "HERMETIC_LIVE is not 1" }
if (!live) console.log("[skip] oracle compare interrupted by SIGINT: set HERMETIC_LIVE=1 to start the real Hermes 0.19.0 gateway")
else if (!engine.ok) console.log(`[skip] oracle compare --target container interrupted by SIGINT: no container engine (${engine.reason})`)

const ROOT = new URL("../../../", import.meta.url).pathname
// only when the tests run: a file whose tests are all skipped never runs its afterAll
const out = live ? mkdtempSync(join(tmpdir(), "hermetic-interrupt-")) : ""
afterAll(() => rmSync(out, { recursive: true, force: true }))

type Interrupted = {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stderr: string
  readonly baseUrls: Array<string>
  readonly containers: Array<string>
  /** The gateways' host processes (process launcher), seen just before the signal. */
  readonly pids: Array<number>
  /** Their temp roots (HERMES_HOME's parent), seen just before the signal. */
  readonly roots: Array<string>
}

/**
 * The gateway processes below the CLI and their temp roots, from /proc: children of the process
 * launcher, or grandchildren forked by a fork server (the default for fresh gateways), whose
 * command line is the server's; a gateway is told by its environment (API_SERVER_PORT, HERMES_HOME).
 */
const gatewayChildren = (root: number): Array<{ pid: number; root: string }> => {
  const parent = new Map<number, number>()
  for (const d of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8")
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]))
    } catch {
      // gone meanwhile
    }
  }
  const below = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true
    return false
  }
  return [...parent.keys()].filter(below).flatMap((pid) => {
    try {
      const env = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")
      const home = env.find((e) => e.startsWith("HERMES_HOME="))
      if (home !== undefined && env.some((e) => e.startsWith("API_SERVER_PORT="))) return [{ pid, root: dirname(home.slice("HERMES_HOME=".length)) }]
      // a forked gateway: /proc/<pid>/environ is what its fork server was started with (the child
      // sets its own variables after the fork), but its working directory is its home's work/
      const cwd = readlinkSync(`/proc/${pid}/cwd`)
      return basename(cwd) === "work" && existsSync(join(dirname(cwd), "hermes-home")) ? [{ pid, root: dirname(cwd) }] : []
    } catch {
      return []
    }
  })
}

/** A container's temp root: the one directory bind-mounted into it (none when the container is already gone). */
const containerRoot = (id: string): Array<string> => {
  try {
    return [execFileSync("docker", ["inspect", "-f", "{{range .Mounts}}{{.Source}}{{end}}", id], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()]
  } catch {
    return []
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Runs `oracle compare` on two workers, sends SIGINT once the first scenario is compared, waits for the exit. */
const interruptCompare = (target: "process" | "container"): Promise<Interrupted> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      // containers play shared (one per worker): a container per play (fresh state) makes the first
      // verdict wait minutes; the process launcher plays fresh, forked gateways (the default)
      ["--conditions=@hermetic/source", "--import", "tsx", "packages/diff/src/cli/main.ts", "compare", "--target", target, "--workers", "2", "--runs", "40", "--seed", "5", "--no-shrink", "--out", join(out, target), ...(target === "container" ? ["--shared"] : [])],
      { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] }
    )
    let stderr = ""
    let signalled = false
    let seen: { pids: Array<number>; roots: Array<string> } = { pids: [], roots: [] }
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`oracle compare did not stop within 540 s of starting (a cold machine builds the venv or image first); stderr:\n${stderr.slice(-3000)}`))
    }, 540_000)
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
      // interrupt mid-comparison: both gateways up, the first scenario compared, the next ones in flight
      if (!signalled && /\n\[oracle\] 1\/\d+ /.test(stderr)) {
        signalled = true
        // each gateway's current container: the last one reported ready on its URL (a restart makes a new one)
        const current = new Map([...stderr.matchAll(/gateway ready at (\S+) \(container ([0-9a-f]{12})/g)].map((m) => [m[1] as string, m[2] as string]))
        const procs = target === "process" ? gatewayChildren(child.pid ?? -1) : []
        seen = { pids: procs.map((p) => p.pid), roots: target === "process" ? procs.map((p) => p.root) : [...current.values()].flatMap(containerRoot) }
        child.kill("SIGINT")
      }
    })
    child.on("exit", (code, signal) => {
      clearTimeout(timer)
      resolve({
        code,
        signal,
        stderr,
        baseUrls: [...stderr.matchAll(/gateway ready at (http:\/\/127\.0\.0\.1:\d+)/g)].map((m) => m[1] as string),
        containers: [...stderr.matchAll(/\(container ([0-9a-f]{12})/g)].map((m) => m[1] as string),
        ...seen
      })
    })
  })

const expectNothingLeft = async (r: Interrupted) => {
  expect({ code: r.code, signal: r.signal }, r.stderr.slice(-2000)).toEqual({ code: 130, signal: null })
  expect(new Set(r.baseUrls).size, "both workers' gateways had started").toBeGreaterThanOrEqual(2)
  for (const url of r.baseUrls) expect(await refused(url), `${url} still answers`).toBe(true)
  // fresh gateways (the default): each worker's current one and the one starting ahead of it
  expect(r.roots.length, "both workers' gateways' temp roots were found").toBeGreaterThanOrEqual(2)
  for (const root of r.roots) expect(existsSync(root), `${root} was left behind`).toBe(false)
  for (const pid of r.pids) expect(alive(pid), `gateway process ${pid} still runs`).toBe(false)
}

describe.skipIf(!live)("oracle compare interrupted by SIGINT leaves nothing behind", () => {
  it("process launcher: no gateway process, port closed, temp HERMES_HOME removed, exit 130", async () => {
    const r = await interruptCompare("process")
    expect(r.pids.length, "both workers' gateway processes were found").toBeGreaterThanOrEqual(2)
    await expectNothingLeft(r)
  }, 600_000)

  it.skipIf(!engine.ok)("container launcher: no gateway container, port closed, temp HERMES_HOME removed, exit 130", async () => {
    const r = await interruptCompare("container")
    await expectNothingLeft(r)
    expect(r.containers.length).toBeGreaterThanOrEqual(2)
    const left = execFileSync("docker", ["ps", "-aq", "--no-trunc", "--filter", "label=hermetic.role=gateway"], { encoding: "utf8" })
      .split("\n")
      .filter((id) => r.containers.some((c) => id.startsWith(c)))
    expect(left, "gateway containers left behind").toEqual([])
  }, 600_000)
})
