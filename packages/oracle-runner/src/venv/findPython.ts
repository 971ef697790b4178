/** Finds a Python interpreter inside a pin's supported range (HERMETIC_PYTHON wins when set). */
import { execa } from "execa"
import { MissingTool } from "../errors.js"
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

const probe = async (cmd: string): Promise<Python | null> => {
  const r = await execa(cmd, ["-c", "import sys; print('%d.%d.%d' % sys.version_info[:3]); print(sys.executable)"], {
    reject: false,
    timeout: 10_000
  })
  if (r.exitCode !== 0) return null
  const [version, path] = r.stdout.trim().split("\n")
  return version && path ? { version, path } : null
}

/** Every candidate that answers, in preference order (used by doctor to say what it saw). */
export const listPythons = async (): Promise<ReadonlyArray<Python>> => {
  const env = process.env["HERMETIC_PYTHON"]
  const candidates = env ? [env] : ["python3.11", "python3.12", "python3.13", "python3"]
  const found: Array<Python> = []
  for (const c of candidates) {
    const p = await probe(c)
    if (p && !found.some((f) => f.path === p.path)) found.push(p)
  }
  return found
}

export const findPython = async (range: PythonRange): Promise<Python> => {
  const all = await listPythons()
  const ok = all.find((p) => inRange(p.version, range))
  if (ok) return ok
  throw new MissingTool({
    tool: `python >=${range.min},<${range.maxExclusive}`,
    hint: `found ${all.map((p) => `${p.path} (${p.version})`).join(", ") || "no python"}; install python3.11 (Debian: apt-get install python3 python3-venv) or set HERMETIC_PYTHON`
  })
}
