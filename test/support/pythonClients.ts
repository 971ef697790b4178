/**
 * A Python venv with the official `openai` SDK and pytest, for tests that drive the emulator (or
 * the real gateway) from Python. Built once under ~/.cache/hermetic/client-venvs (or
 * $HERMETIC_CLIENT_VENV) with pip; where pip cannot install, callers skip and print the reason.
 */
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"

/** Pinned like everything else: the openai version the real 0.19.0 gateway's venv holds. */
export const PYTHON_CLIENT_REQUIREMENTS = ["openai==2.24.0", "pytest==9.2.0"] as const

const run = (file: string, args: ReadonlyArray<string>, timeout: number) =>
  new Promise<{ ok: boolean; out: string }>((resolve) => {
    execFile(file, [...args], { timeout, encoding: "utf8" }, (error, stdout, stderr) => resolve({ ok: error === null, out: `${stdout}${stderr}`.trim() }))
  })

export type PythonClients = { readonly python: string } | { readonly skip: string }

/** The venv's python, or why there is none (no python3, no venv module, pip could not install). */
export const pythonClients = async (): Promise<PythonClients> => {
  const dir = process.env["HERMETIC_CLIENT_VENV"] ?? join(homedir(), ".cache", "hermetic", "client-venvs", PYTHON_CLIENT_REQUIREMENTS.join("_"))
  const python = join(dir, "bin", "python")
  const check = async () => (await run(python, ["-c", "import openai, pytest"], 30_000)).ok
  if (existsSync(python) && (await check())) return { python }
  const venv = await run("python3", ["-m", "venv", dir], 120_000)
  if (!venv.ok) return { skip: `cannot create a venv at ${dir}: ${venv.out.split("\n").pop() ?? ""}` }
  const pip = await run(python, ["-m", "pip", "install", "--quiet", ...PYTHON_CLIENT_REQUIREMENTS], 300_000)
  if (!pip.ok || !(await check())) return { skip: `pip could not install ${PYTHON_CLIENT_REQUIREMENTS.join(" ")}: ${pip.out.split("\n").pop() ?? ""}` }
  return { python }
}
