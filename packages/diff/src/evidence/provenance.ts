/**
 * Where a comparison's answers came from: the pin's source-lock entry, the versions installed in
 * the gateway's venv (read from that venv's own Python), the emulator's git commit and whether
 * its files had uncommitted changes, Node, seed and time.
 */
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { FileSystem } from "@effect/platform"
import { Effect } from "effect"
import type { JsonValue } from "../json/JsonValue.js"
import { sourceLockPath } from "./sourceLockPath.js"

/** A command's stdout; a command that cannot run or fails is the failure (git, the venv's Python: the process edge). */
const output = (file: string, args: ReadonlyArray<string>, options: { readonly cwd?: string; readonly timeout?: number } = {}): Effect.Effect<string, Error> =>
  Effect.tryPromise({ try: () => promisify(execFile)(file, [...args], options).then((r) => r.stdout), catch: (e) => (e instanceof Error ? e : new Error(String(e))) })

export const repoRoot = (): string => new URL("../../../../", import.meta.url).pathname.replace(/\/$/, "")

/** Where evidence goes without --out: the repository's evidence/ in a checkout, ./evidence where the package is installed. */
export const defaultEvidenceDir = (): string =>
  existsSync(join(repoRoot(), "packages", "diff", "package.json")) ? join(repoRoot(), "evidence") : join(process.cwd(), "evidence")

export const emulatorGitState: Effect.Effect<{ commit: string; dirty: boolean }> = Effect.gen(function*() {
  const cwd = repoRoot()
  const commit = (yield* output("git", ["rev-parse", "HEAD"], { cwd })).trim()
  const status = (yield* output("git", ["status", "--porcelain", "--", "packages/emulator"], { cwd })).trim()
  return { commit, dirty: status !== "" }
}).pipe(Effect.orElseSucceed(() => ({ commit: "unknown (not a git checkout)", dirty: false })))

export const sourceLockEntry = (pin: string): Effect.Effect<JsonValue | undefined, never, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(sourceLockPath())).pipe(
    Effect.flatMap((text) => Effect.try(() => (JSON.parse(text) as { pins?: Record<string, JsonValue> }).pins?.[pin])),
    Effect.orElseSucceed(() => undefined)
  )

const VERSIONS_SCRIPT = `import json, sys, importlib.metadata as m
out = {"python": sys.version.split()[0]}
for p in ["hermes-agent", "aiohttp", "openai", "httpx", "pydantic"]:
    try: out[p] = m.version(p)
    except Exception: out[p] = "not installed"
print(json.dumps(out))`

/** Installed versions in the newest cached venv of the pin (the one the process launcher uses). */
export const installedVersions = (pin: string): Effect.Effect<Record<string, string> | undefined, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const root = process.env["HERMETIC_CACHE_DIR"] ?? join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "hermetic")
    const venvs = join(root, "venvs")
    const candidates = (yield* fs.readDirectory(venvs)).filter((d) => d.startsWith(`${pin}-`))
    const withTimes = yield* Effect.forEach(candidates, (d) => Effect.map(fs.stat(join(venvs, d)), (info) => ({ d, t: info.mtime._tag === "Some" ? info.mtime.value.getTime() : 0 })))
    const newest = withTimes.sort((a, b) => b.t - a.t)[0]
    if (newest === undefined) return undefined
    const python = join(venvs, newest.d, "bin", "python")
    const out = yield* output(python, ["-c", VERSIONS_SCRIPT], { timeout: 30_000 })
    return { ...(JSON.parse(out) as Record<string, string>), venv: join(venvs, newest.d) }
  }).pipe(Effect.orElseSucceed(() => undefined))
