/**
 * Where a comparison's answers came from: the pin's source-lock entry, the versions installed in
 * the gateway's venv (read from that venv's own Python), the emulator's git commit and whether
 * its files had uncommitted changes, Node, seed and time.
 */
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { readdir, readFile, stat } from "node:fs/promises"
import { homedir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { defaultLockPath } from "@hermetic/oracle-runner"
import type { JsonValue } from "../json/JsonValue.js"

const run = promisify(execFile)

export const repoRoot = (): string => new URL("../../../../", import.meta.url).pathname.replace(/\/$/, "")

/** Where evidence goes without --out: the repository's evidence/ in a checkout, ./evidence where the package is installed. */
export const defaultEvidenceDir = (): string =>
  existsSync(join(repoRoot(), "packages", "diff", "package.json")) ? join(repoRoot(), "evidence") : join(process.cwd(), "evidence")

export const emulatorGitState = async (): Promise<{ commit: string; dirty: boolean }> => {
  try {
    const cwd = repoRoot()
    const commit = (await run("git", ["rev-parse", "HEAD"], { cwd })).stdout.trim()
    const status = (await run("git", ["status", "--porcelain", "--", "packages/emulator"], { cwd })).stdout.trim()
    return { commit, dirty: status !== "" }
  } catch {
    return { commit: "unknown (not a git checkout)", dirty: false }
  }
}

export const sourceLockEntry = async (pin: string): Promise<JsonValue | undefined> => {
  try {
    const lock = JSON.parse(await readFile(defaultLockPath(), "utf8")) as { pins?: Record<string, JsonValue> }
    return lock.pins?.[pin]
  } catch {
    return undefined
  }
}

const VERSIONS_SCRIPT = `import json, sys, importlib.metadata as m
out = {"python": sys.version.split()[0]}
for p in ["hermes-agent", "aiohttp", "openai", "httpx", "pydantic"]:
    try: out[p] = m.version(p)
    except Exception: out[p] = "not installed"
print(json.dumps(out))`

/** Installed versions in the newest cached venv of the pin (the one the process launcher uses). */
export const installedVersions = async (pin: string): Promise<Record<string, string> | undefined> => {
  const root = process.env["HERMETIC_CACHE_DIR"] ?? join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "hermetic")
  const venvs = join(root, "venvs")
  if (!existsSync(venvs)) return undefined
  const candidates = (await readdir(venvs)).filter((d) => d.startsWith(`${pin}-`))
  const withTimes = await Promise.all(candidates.map(async (d) => ({ d, t: (await stat(join(venvs, d))).mtimeMs })))
  const newest = withTimes.sort((a, b) => b.t - a.t)[0]
  if (newest === undefined) return undefined
  try {
    const python = join(venvs, newest.d, "bin", "python")
    const out = (await run(python, ["-c", VERSIONS_SCRIPT], { timeout: 30_000 })).stdout
    return { ...(JSON.parse(out) as Record<string, string>), venv: join(venvs, newest.d) }
  } catch {
    return undefined
  }
}
