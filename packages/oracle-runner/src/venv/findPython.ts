/** Finds a Python interpreter inside a pin's supported range (HERMETIC_PYTHON wins when set). */
import { Effect } from "effect"
import { MissingTool } from "../errors.js"
import { runCommand } from "../exec/Command.js"
import type { PythonRange } from "../lock/SourceLock.js"

export type Python = { readonly path: string; readonly version: string }

const toPair = (v: string): [number, number] => {
  const [a, b] = v.split(".").map(Number)
  return [a ?? 0, b ?? 0]
}
const cmp = (x: string, y: string): number => {
  const [a, b] = toPair(x)
  const [c, d] = toPair(y)
  return a !== c ? a - c : b - d
}
export const inRange = (version: string, range: PythonRange): boolean =>
  cmp(version, range.min) >= 0 && cmp(version, range.maxExclusive) < 0

const probe = (cmd: string): Effect.Effect<Python | null> =>
  Effect.map(
    runCommand(cmd, ["-c", "import sys; print('%d.%d.%d' % sys.version_info[:3]); print(sys.executable)"], { timeoutMs: 10_000 }),
    (r) => {
      if (r.exitCode !== 0) return null
      const [version, path] = r.stdout.trim().split("\n")
      return version && path ? { version, path } : null
    }
  )

/** Every candidate that answers, in preference order (used by doctor to say what it saw). */
export const listPythons: Effect.Effect<ReadonlyArray<Python>> = Effect.suspend(() => {
  const env = process.env["HERMETIC_PYTHON"]
  const candidates = env ? [env] : ["python3.11", "python3.12", "python3.13", "python3"]
  return Effect.map(Effect.forEach(candidates, probe), (answers) => {
    const found: Array<Python> = []
    for (const p of answers) if (p && !found.some((f) => f.path === p.path)) found.push(p)
    return found
  })
})

export const findPython = (range: PythonRange): Effect.Effect<Python, MissingTool> =>
  Effect.flatMap(listPythons, (all) => {
    const ok = all.find((p) => inRange(p.version, range))
    return ok !== undefined
      ? Effect.succeed(ok)
      : Effect.fail(new MissingTool({
        tool: `python >=${range.min},<${range.maxExclusive}`,
        hint: `found ${all.map((p) => `${p.path} (${p.version})`).join(", ") || "no python"}; install python3.11 (Debian: apt-get install python3 python3-venv) or set HERMETIC_PYTHON`
      }))
  })
