/**
 * `doctor`: for each pin and launcher, can the oracle run here, and if not, why and what to install;
 * with `--fix` it first installs what it can (doctorFix.ts).
 * It downloads nothing but the 0.19.0 wheel (into the cache, digest-checked) and tries one HEAD
 * request to the 0.21.0 archive host with a short timeout.
 */
import { existsSync } from "node:fs"
import type { FileSystem, Path } from "@effect/platform"
import { Effect, Either } from "effect"
import { probeEngine } from "../container/engine.js"
import { imageTagFor } from "../container/imageName.js"
import { runCommand } from "../exec/Command.js"
import { findFaketimeLib } from "../gateway/FakeClock.js"
import { readSourceLock, defaultLockPath, type Pin } from "../lock/SourceLock.js"
import { verifyFiles } from "../lock/verifyFiles.js"
import { cachedVenv, fetchPypiWheel } from "../venv/HermesVenv.js"
import { inRange, listPythons } from "../venv/findPython.js"
import type { Values } from "./args.js"
import { applyFixes } from "./doctorFix.js"

const out = (line: string) => process.stdout.write(`${line}\n`)

const imagePresent = (ref: string): Effect.Effect<boolean> =>
  Effect.map(runCommand("docker", ["image", "inspect", ref], { timeoutMs: 10_000 }), (r) => r.exitCode === 0)

const archiveReachable = (url: string): Effect.Effect<string | null> =>
  Effect.promise(async () => {
    try {
      const r = await fetch(url, { method: "HEAD", signal: AbortSignal.timeout(5000) })
      return r.ok ? null : `HTTP ${r.status}`
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause
      return `${(e as Error).message}${cause ? ` (${cause.code ?? cause.message ?? ""})` : ""}`
    }
  })

export const doctorCommand = (flags: Values<"doctor">): Effect.Effect<number, unknown, FileSystem.FileSystem | Path.Path> => Effect.gen(function*() {
  const source = flags.source
  const { lock } = yield* readSourceLock()
  if (flags.fix === true) {
    // fix first, then report on the machine as it now is
    for (const fix of yield* applyFixes(lock, (line) => out(`fix       ${line}`))) out(`fix       ${fix.what}: ${fix.outcome} — ${fix.detail}`)
  }
  out(`lock      ${defaultLockPath()}: ok; pins ${Object.keys(lock.pins).join(", ")}; default ${lock.default}`)
  const pythons = yield* listPythons
  out(`python    ${pythons.map((p) => `${p.path} ${p.version}`).join("; ") || "none found: apt-get install python3 python3-venv (3.11 to 3.13)"}`)
  const ft = findFaketimeLib()
  out(`faketime  ${ft ? `ok: ${ft}` : "missing: apt-get update && apt-get install -y faketime (needed only for clock control)"}`)
  const engine = yield* Effect.promise(probeEngine)
  out(`engine    ${engine.ok ? `ok: ${engine.info}` : `not running (${engine.reason}); start one with scripts/container-engine.sh up`}`)
  let defaultRunnable = false

  for (const [name, pin] of Object.entries(lock.pins)) {
    out(`pin ${name} (release ${pin.releaseDate}${pin.commit ? `, commit ${pin.commit.slice(0, 12)}` : ""})`)
    const py = pythons.find((p) => inRange(p.version, pin.python))
    const pyLine = py ? `python ${py.version}` : `no python >=${pin.python.min},<${pin.python.maxExclusive}`
    // process launcher
    const processLine = yield* processStatus(name, pin, py?.path, source)
    out(`  process    ${processLine.ok ? "obtainable" : "NOT obtainable here"}: ${processLine.text} [${pyLine}]`)
    if (name === lock.default && processLine.ok && py) defaultRunnable = true
    // container launcher
    let containerLine: string
    if (pin.obtain.pypi) {
      const tag = imageTagFor(name, pin)
      containerLine = engine.ok
        ? (yield* imagePresent(tag)) ? `obtainable: image ${tag} is built` : `obtainable: image ${tag} is built on first use from Debian packages and the PyPI wheels`
        : `needs a container engine (scripts/container-engine.sh up); the image is then built locally`
    } else if (pin.obtain.image) {
      const ref = `${pin.obtain.image.ref.split(":")[0]}@${pin.obtain.image.digest}`
      if (!engine.ok) containerLine = `NOT obtainable here: needs a running container engine and ${ref} from a reachable registry`
      else if (yield* imagePresent(ref)) containerLine = `image ${ref} is in the local image store, but running the official image is not implemented yet (its entrypoint and user handling were never seen here)`
      else {
        const pull = yield* runCommand("docker", ["pull", ref], { timeoutMs: 30_000 })
        containerLine = pull.exitCode === 0
          ? `pulled ${ref}, but running the official image is not implemented yet`
          : `NOT obtainable here: pulling ${ref} failed: ${String(pull.all).trim().split("\n").at(-1) ?? ""}`
      }
    } else containerLine = "NOT obtainable: the lock names no image"
    out(`  container  ${containerLine}`)
  }
  return defaultRunnable ? 0 : 2
})

const processStatus = (
  name: string,
  pin: Pin,
  python: string | undefined,
  source: string | undefined
): Effect.Effect<{ ok: boolean; text: string }, never, FileSystem.FileSystem | Path.Path> => Effect.gen(function*() {
  if (pin.obtain.pypi) {
    const cached = yield* Effect.either(cachedVenv(name, pin))
    if (Either.isLeft(cached)) return { ok: false, text: `cached venv fails the lock check; it will be rebuilt:\n${cached.left.message}` }
    if (cached.right) return { ok: true, text: `cached venv verified against the lock (${cached.right.dir})` }
    if (!python) return { ok: false, text: "needs a python in range to build the venv" }
    const wheel = yield* Effect.either(fetchPypiWheel(python, name, pin, () => {}))
    return Either.isRight(wheel)
      ? { ok: true, text: `wheel from PyPI matches the lock (${wheel.right}); the first 'up' builds the venv (about 30 s)` }
      : { ok: false, text: wheel.left.message }
  }
  if (source) {
    if (!existsSync(source)) return { ok: false, text: `--source ${source} does not exist` }
    const verified = yield* Effect.either(verifyFiles(source, name, pin))
    return Either.isRight(verified)
      ? { ok: true, text: `--source ${source} matches the lock digests; 'up --pin ${name} --source ${source}' installs it editable` }
      : { ok: false, text: verified.left.message }
  }
  const archive = pin.obtain.sourceArchive
  const why = archive ? yield* archiveReachable(archive.url) : "no archive in the lock"
  return {
    ok: false,
    text: `not on PyPI; needs --source DIR (a checkout of ${pin.tag ?? "?"} whose files match the lock)${archive ? `; the source archive host is unreachable: ${why ?? "reachable (download and unpack it, then pass --source)"}` : ""}`
  }
})
