/**
 * `doctor --fix`: installs what the runner needs and can install by itself — libfaketime from
 * Debian's `faketime` package (as root, where apt-get exists) and the default pin's venv from
 * PyPI (verified against the lock, as `up` would build it). What it cannot install (a Python in
 * range, a container engine, a pin not on PyPI) it leaves to the doctor's report, with the reason.
 */
import type { FileSystem, Path } from "@effect/platform"
import { Effect, Either } from "effect"
import { runCommand } from "../exec/Command.js"
import { findFaketimeLib } from "../gateway/FakeClock.js"
import type { SourceLock } from "../lock/SourceLock.js"
import { cachedVenv, ensureVenv } from "../venv/HermesVenv.js"

export interface Fix {
  readonly what: string
  readonly outcome: "done" | "skipped" | "failed"
  readonly detail: string
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0

const installFaketime: Effect.Effect<Fix> = Effect.gen(function*() {
  if (findFaketimeLib() !== null) return { what: "faketime", outcome: "skipped", detail: "already installed" }
  const apt = yield* runCommand("sh", ["-c", "command -v apt-get"])
  if (apt.exitCode !== 0) return { what: "faketime", outcome: "skipped", detail: "no apt-get here: install libfaketime with the system's package manager" }
  // as root directly; otherwise through sudo without a prompt (it fails, and says so, where that is not allowed)
  const run = (args: ReadonlyArray<string>) =>
    isRoot()
      ? runCommand("apt-get", args, { env: { DEBIAN_FRONTEND: "noninteractive" }, timeoutMs: 300_000 })
      : runCommand("sudo", ["-n", "apt-get", ...args], { env: { DEBIAN_FRONTEND: "noninteractive" }, timeoutMs: 300_000 })
  const update = yield* run(["update", "-qq"])
  if (update.exitCode !== 0) return { what: "faketime", outcome: "failed", detail: `apt-get update failed: ${String(update.all).trim().split("\n").at(-1) ?? ""}` }
  const install = yield* run(["install", "-y", "-qq", "--no-install-recommends", "faketime"])
  if (install.exitCode !== 0) return { what: "faketime", outcome: "failed", detail: `apt-get install faketime failed: ${String(install.all).trim().split("\n").at(-1) ?? ""}` }
  const lib = findFaketimeLib()
  return lib !== null ? { what: "faketime", outcome: "done", detail: `installed: ${lib}` } : { what: "faketime", outcome: "failed", detail: "installed, but libfaketimeMT.so.1 is not where the runner looks" }
})

const buildVenv = (lock: SourceLock, progress: (line: string) => void): Effect.Effect<Fix, never, FileSystem.FileSystem | Path.Path> => Effect.gen(function*() {
  const name = lock.default
  const pin = lock.pins[name]
  if (pin === undefined) return { what: `venv ${name}`, outcome: "failed", detail: "the lock's default pin is not among its pins" }
  if (!pin.obtain.pypi) return { what: `venv ${name}`, outcome: "skipped", detail: "not on PyPI: install it with up --source DIR" }
  const cached = yield* cachedVenv(name, pin).pipe(Effect.orElseSucceed(() => null))
  if (cached !== null) return { what: `venv ${name}`, outcome: "skipped", detail: `cached and verified (${cached.dir})` }
  const built = yield* Effect.either(ensureVenv(name, pin, { progress }))
  return Either.isRight(built)
    ? { what: `venv ${name}`, outcome: "done", detail: `built and verified against the lock: ${built.right.dir}` }
    : { what: `venv ${name}`, outcome: "failed", detail: built.left.message }
})

export const applyFixes = (lock: SourceLock, progress: (line: string) => void): Effect.Effect<ReadonlyArray<Fix>, never, FileSystem.FileSystem | Path.Path> =>
  Effect.all([installFaketime, buildVenv(lock, progress)])
