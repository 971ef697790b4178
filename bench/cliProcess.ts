/**
 * The emulator as users run it, for the reliability bench: the shipped one-file bundle
 * (packages/emulator/dist/hermes-emulator-launcher.cjs, what `hermes-emulator serve` runs once
 * built) in its own process. Not the sources through tsx: that loader alone added ~170 MiB of RSS
 * and its own start cost, so every figure taken on it measured the wrong thing.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import * as net from "node:net"
import { join } from "node:path"

const repoRoot = new URL("..", import.meta.url).pathname
const BUNDLED_CLI = join(repoRoot, "packages/emulator/dist/hermes-emulator-launcher.cjs")

export interface Emu {
  readonly proc: ChildProcess
  readonly url: string
  readonly port: number
}

/** Node options and environment for the emulator's process (a diagnostic preload, for one). */
export interface ServeProcessOptions {
  readonly nodeArgs?: ReadonlyArray<string>
  readonly env?: Readonly<Record<string, string>>
  /** Another tree's bundle (an A/B of two builds); this tree's by default. */
  readonly cli?: string
}

/** `hermes-emulator serve ARGS` from the bundle on `port`; resolves once it says it is listening. */
export const startBundledServe = (port: number, args: ReadonlyArray<string>, options: ServeProcessOptions = {}): Promise<Emu> =>
  new Promise((resolve, reject) => {
    const cli = options.cli ?? BUNDLED_CLI
    if (!existsSync(cli)) return reject(new Error(`${cli} is missing: run npm run build first`))
    const proc = spawn(process.execPath, [...(options.nodeArgs ?? []), cli, "serve", "--port", String(port), ...args], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...options.env }
    })
    let stderr = ""
    proc.stderr?.on("data", (d: Buffer) => (stderr = `${stderr}${d.toString()}`.slice(-4000)))
    const timer = setTimeout(() => reject(new Error("emulator did not start in 60 s")), 60_000)
    proc.stdout?.on("data", (d: Buffer) => {
      if (d.toString().includes("listening on")) {
        clearTimeout(timer)
        resolve({ proc, url: `http://127.0.0.1:${port}`, port })
      }
    })
    proc.on("exit", (code) => reject(new Error(`emulator exited ${code}: ${stderr}`)))
  })

export const stopEmu = async (e: Emu, signal: NodeJS.Signals = "SIGTERM") => {
  if (e.proc.exitCode !== null || e.proc.signalCode !== null) return
  const exited = new Promise<void>((done) => e.proc.once("exit", () => done()))
  e.proc.kill(signal)
  await exited
}

export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = net.createServer()
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })

/** The resident set's parts of a process, in MiB (Linux /proc/PID/status): anonymous memory, mapped files, shared memory. */
export const rssParts = (pid: number): { readonly anon: number; readonly file: number; readonly shmem: number; readonly threads: number } => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  const mib = (kib: number) => Number((kib / 1024).toFixed(1))
  return { anon: mib(field("RssAnon")), file: mib(field("RssFile")), shmem: mib(field("RssShmem")), threads: field("Threads") }
}

/** Resident set size of a process, in KiB (Linux /proc). */
export const rssKiB = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0)

export const percentile = (xs: ReadonlyArray<number>, p: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0
}
