/** Starting a bench child (bench/servers/*.ts) and reading its `LISTENING <port> <controlPort> <runId>` line. */
import { execa } from "execa"
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

export const startChild = async (
  script: string,
  args: ReadonlyArray<string> = [],
  opts: { readonly nodeArgs?: ReadonlyArray<string>; readonly onLine?: (line: string) => void; readonly timeoutMs?: number } = {}
): Promise<Child> => {
  const proc = execa("node", [...(opts.nodeArgs ?? []), "--conditions=@hermetic/source", "--import", "tsx", script, ...args], {
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
