/**
 * Starting a bench child (bench/servers/*.ts) and reading its `LISTENING <port> <controlPort> <runId>` line.
 *
 * A child runs as plain JavaScript on plain node, as users run the emulator: its script is compiled
 * by esbuild (packages left as imports), so `@hermetic/emulator` is the built package (dist/, what
 * npm installs), never the TypeScript sources through a loader. Measured in process, the sources
 * through tsx cost a POST ~30 % more CPU than the built package (~285 vs ~215 µs): the loader's
 * name-keeping wrappers and source maps are no part of the product, and the bare reference must
 * not pay them either.
 */
import { build } from "esbuild"
import { execa } from "execa"
import { execFileSync } from "node:child_process"
import { basename, dirname, join } from "node:path"
import { createInterface } from "node:readline"

export interface Child {
  readonly proc: { readonly kill: (signal?: NodeJS.Signals) => boolean; readonly pid?: number | undefined }
  readonly port: number
  readonly baseUrl: string
  readonly controlPort: number
  readonly runId: string
  /** Everything after the run id on the LISTENING line. */
  readonly extra: ReadonlyArray<string>
  readonly stop: () => Promise<void>
}

export const repoRoot = new URL("..", import.meta.url).pathname

let built = false
/** The packages' dist/ brought up to date once per bench process (`tsc -b` is incremental: ~1 s when nothing changed). */
export const ensureBuilt = () => {
  if (built) return
  execFileSync("node", [join(repoRoot, "scripts", "build.mjs")], { cwd: repoRoot, stdio: ["ignore", "ignore", "inherit"] })
  built = true
}

/**
 * The script (a path from the repo root) as one plain ES module next to it (`.<name>.built.mjs`, so
 * paths relative to `import.meta.url` still hold); packages stay imports, resolved without the
 * source condition. Plain: no loader's name-keeping wrappers, which change what V8 retains.
 */
export const compile = async (script: string): Promise<string> => {
  ensureBuilt()
  const source = join(repoRoot, script)
  const outfile = join(dirname(source), `.${basename(source, ".ts")}.built.mjs`)
  await build({ entryPoints: [source], outfile, bundle: true, packages: "external", format: "esm", platform: "node", target: "node20", logLevel: "error" })
  return outfile
}

export const startChild = async (
  script: string,
  args: ReadonlyArray<string> = [],
  opts: { readonly nodeArgs?: ReadonlyArray<string>; readonly onLine?: (line: string) => void; readonly timeoutMs?: number } = {}
): Promise<Child> => {
  const proc = execa("node", [...(opts.nodeArgs ?? []), await compile(script), ...args], {
    cwd: repoRoot,
    reject: false,
    stdin: "ignore",
    stderr: "pipe"
  })
  const done = proc.then(() => undefined)
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: proc.stdout! })
    const timer = setTimeout(() => reject(new Error(`${script} did not start within ${opts.timeoutMs ?? 60_000} ms`)), opts.timeoutMs ?? 60_000)
    rl.on("line", (l) => {
      if (l.startsWith("LISTENING ")) {
        clearTimeout(timer)
        resolve(l)
      } else opts.onLine?.(l)
    })
    void proc.then((r) => {
      clearTimeout(timer)
      reject(new Error(`${script} exited early (code ${String(r.exitCode)}): ${String(r.stderr).slice(-2000)}`))
    })
  })
  const [, port, controlPort, runId, ...extra] = line.split(" ")
  return {
    proc,
    port: Number(port),
    baseUrl: `http://127.0.0.1:${String(port)}`,
    controlPort: Number(controlPort),
    runId: String(runId),
    extra,
    stop: async () => {
      proc.kill("SIGTERM")
      await Promise.race([done, new Promise((r) => setTimeout(r, 5000))])
      proc.kill("SIGKILL")
    }
  }
}
