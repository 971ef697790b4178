/**
 * A virtualenv holding one pin of Hermes, built once under the cache dir and reused while the lock
 * entry (and, for a source install, the checkout path) is unchanged. A venv is only used after its
 * installed API-server files match source-lock.json. Files and paths go through platform's
 * FileSystem and Path, commands through exec/Command; what cannot be done is a typed error
 * (PinUnavailable, LockMismatch, MissingTool, VenvBuildFailed), and a build that fails or is
 * interrupted leaves no half-built venv behind (a scope finalizer removes it).
 */
import { createHash } from "node:crypto"
import { join, resolve } from "node:path"
import { FileSystem, Path } from "@effect/platform"
import { Effect, Exit } from "effect"
import { type LockMismatch, type MissingTool, PinUnavailable, VenvBuildFailed } from "../errors.js"
import { outputTail, runCommand } from "../exec/Command.js"
import type { Pin } from "../lock/SourceLock.js"
import { sha256File, verifyFiles } from "../lock/verifyFiles.js"
import { cacheRoot } from "./cacheDir.js"
import { findPython } from "./findPython.js"

export type Progress = (line: string) => void

export type HermesVenv = {
  readonly dir: string
  readonly python: string
  readonly hermes: string
  /** Where the upstream files listed in the lock live (site-packages, or the checkout). */
  readonly packageRoot: string
  readonly pythonVersion: string
  /** True when this call built it, false when a cached venv was reused. */
  readonly built: boolean
}

export type VenvError = PinUnavailable | LockMismatch | MissingTool | VenvBuildFailed

type Marker = { readonly lockHash: string; readonly packageRoot: string; readonly pythonVersion: string }

const MARKER = "hermetic-venv.json"

export const pinHash = (pin: Pin, extra = ""): string =>
  createHash("sha256").update(JSON.stringify(pin) + extra).digest("hex").slice(0, 12)

const sourceKey = (source: string | undefined) => (source ? resolve(source) : "")

export const venvDirFor = (pinName: string, pin: Pin, source?: string): string =>
  join(cacheRoot(), "venvs", `${pinName}-${pinHash(pin, sourceKey(source))}`)

const venvOf = (path: Path.Path, dir: string, marker: Marker, built: boolean): HermesVenv => ({
  dir,
  python: path.join(dir, "bin", "python"),
  hermes: path.join(dir, "bin", "hermes"),
  packageRoot: marker.packageRoot,
  pythonVersion: marker.pythonVersion,
  built
})

/** One build step; a non-zero exit is VenvBuildFailed. Its output is forwarded as progress. */
const buildStep = (pinName: string, progress: Progress, cmd: string, args: ReadonlyArray<string>) =>
  Effect.flatMap(
    runCommand(cmd, args, { env: { PIP_DISABLE_PIP_VERSION_CHECK: "1" }, onLine: (line) => progress(`  ${line}`) }),
    (r) =>
      r.exitCode === 0
        ? Effect.void
        : Effect.fail(new VenvBuildFailed({ pin: pinName, command: `${cmd} ${args.join(" ")}`, exitCode: r.exitCode ?? null, outputTail: outputTail(r) }))
  )

const purelib = (python: string) =>
  Effect.map(runCommand(python, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]), (r) => r.stdout.trim())

/** Looks for an existing, verified venv without building: null when there is none (or its marker is stale). */
export const cachedVenv = (pinName: string, pin: Pin, source?: string): Effect.Effect<HermesVenv | null, LockMismatch, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const dir = venvDirFor(pinName, pin, source)
    const marker = yield* fs.readFileString(path.join(dir, MARKER)).pipe(
      Effect.map((text) => JSON.parse(text) as Marker),
      Effect.orElseSucceed(() => null)
    )
    if (marker === null || marker.lockHash !== pinHash(pin, sourceKey(source))) return null
    yield* verifyFiles(marker.packageRoot, pinName, pin)
    return venvOf(path, dir, marker, false)
  })

/** The pin's wheel in the cache, downloaded from PyPI when missing; its digest must match the lock. */
export const fetchPypiWheel = (python: string, pinName: string, pin: Pin, progress: Progress): Effect.Effect<string, PinUnavailable, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const pypi = pin.obtain.pypi
    if (!pypi) return yield* new PinUnavailable({ pin: pinName, reason: "no PyPI source in the lock", needed: [] })
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const wheelDir = path.join(cacheRoot(), "wheels", pinName)
    const wheel = path.join(wheelDir, pypi.wheel)
    if ((yield* sha256File(wheel)) !== pypi.wheelSha256) {
      yield* fs.makeDirectory(wheelDir, { recursive: true }).pipe(Effect.orDie)
      progress(`downloading ${pypi.wheel} from PyPI`)
      const spec = pypi.requirement.replace(/\[[^\]]*\]/, "")
      yield* buildStep(pinName, progress, python, ["-m", "pip", "download", "--no-deps", "-q", "-d", wheelDir, spec]).pipe(
        Effect.mapError((e) =>
          new PinUnavailable({
            pin: pinName,
            reason: `pip could not download ${spec}: exit ${String(e.exitCode)}`,
            needed: ["a reachable PyPI (or PIP_INDEX_URL pointing at a mirror that has it)"]
          })
        )
      )
    }
    const actual = yield* sha256File(wheel)
    if (actual !== pypi.wheelSha256) {
      return yield* new PinUnavailable({
        pin: pinName,
        reason: `downloaded wheel ${pypi.wheel} has sha256 ${actual}, the lock says ${pypi.wheelSha256}`,
        needed: ["the wheel PyPI published for this release (the lock digest)"]
      })
    }
    return wheel
  })

const notObtainable = (pinName: string, pin: Pin) =>
  new PinUnavailable({
    pin: pinName,
    reason: "this pin is not on PyPI; it is installed editable from a source checkout",
    needed: [
      `--source DIR: a checkout of ${pin.tag ?? "the release"} (commit ${pin.commit ?? "?"}) whose files match the digests in source-lock.json`,
      ...(pin.obtain.sourceArchive ? [`or a machine that reaches ${pin.obtain.sourceArchive.url} (sha256 ${pin.obtain.sourceArchive.sha256})`] : []),
      ...(pin.obtain.image ? [`or, with --launcher container, a reachable registry serving ${pin.obtain.image.ref}@${pin.obtain.image.digest}`] : [])
    ]
  })

/** Builds the venv in place (venv scripts hard-code their path, so no build-then-rename); the marker is written last. */
const buildVenv = (pinName: string, pin: Pin, source: string | undefined, progress: Progress) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const python = yield* findPython(pin.python)
    const dir = venvDirFor(pinName, pin, source)
    yield* fs.remove(dir, { recursive: true, force: true }).pipe(Effect.orDie)
    yield* fs.makeDirectory(dir, { recursive: true }).pipe(Effect.orDie)
    // failed or interrupted: no half-built venv stays behind for the next call to trust
    yield* Effect.addFinalizer((exit) => (Exit.isSuccess(exit) ? Effect.void : fs.remove(dir, { recursive: true, force: true }).pipe(Effect.ignore)))
    progress(`creating venv ${dir} with ${python.path} (${python.version})`)
    yield* buildStep(pinName, progress, python.path, ["-m", "venv", dir])
    const vpy = path.join(dir, "bin", "python")
    let packageRoot: string
    if (source) {
      progress(`pip install -e ${source}[messaging] (a minute or two)`)
      yield* buildStep(pinName, progress, vpy, ["-m", "pip", "install", "-q", "-e", `${resolve(source)}[messaging]`])
      packageRoot = resolve(source)
    } else {
      const wheel = yield* fetchPypiWheel(vpy, pinName, pin, progress)
      const extras = /\[([^\]]*)\]/.exec(pin.obtain.pypi?.requirement ?? "")?.[1]
      progress(`pip install ${pin.obtain.pypi?.requirement} (a minute or two)`)
      yield* buildStep(pinName, progress, vpy, ["-m", "pip", "install", "-q", extras ? `${wheel}[${extras}]` : wheel])
      packageRoot = yield* purelib(vpy)
    }
    yield* verifyFiles(packageRoot, pinName, pin)
    const marker: Marker = { lockHash: pinHash(pin, sourceKey(source)), packageRoot, pythonVersion: python.version }
    yield* fs.writeFileString(path.join(dir, MARKER), JSON.stringify(marker, null, 2)).pipe(Effect.orDie)
    progress(`venv ready and verified against source-lock.json`)
    return venvOf(path, dir, marker, true)
  }).pipe(Effect.scoped)

/**
 * A verified venv for the pin, built when missing or stale. For a pin installed from source,
 * `source` is a checkout whose files must already match the lock before anything is installed.
 */
export const ensureVenv = (
  pinName: string,
  pin: Pin,
  options: { readonly source?: string; readonly progress?: Progress } = {}
): Effect.Effect<HermesVenv, VenvError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const progress = options.progress ?? (() => {})
    const source = options.source
    if (!pin.obtain.pypi && !source) return yield* notObtainable(pinName, pin)
    if (source) yield* verifyFiles(source, pinName, pin)
    // a cached venv whose files no longer match is rebuilt, not refused
    const cached = yield* cachedVenv(pinName, pin, source).pipe(Effect.orElseSucceed(() => null))
    return cached ?? (yield* buildVenv(pinName, pin, source, progress))
  })
