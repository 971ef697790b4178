/**
 * A virtualenv holding one pin of Hermes, built once under the cache dir and reused while the lock
 * entry (and, for a source install, the checkout path) is unchanged. A venv is only used after its
 * installed API-server files match source-lock.json.
 */
import { createHash } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdir, readFile, rm, writeFile } from "node:fs/promises"
import { join, resolve } from "node:path"
import { execa } from "execa"
import { PinUnavailable } from "../errors.js"
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

type Marker = { readonly lockHash: string; readonly packageRoot: string; readonly pythonVersion: string }

export const pinHash = (pin: Pin, extra = ""): string =>
  createHash("sha256").update(JSON.stringify(pin) + extra).digest("hex").slice(0, 12)

export const venvDirFor = (pinName: string, pin: Pin, source?: string): string =>
  join(cacheRoot(), "venvs", `${pinName}-${pinHash(pin, source ? resolve(source) : "")}`)

const purelib = async (python: string): Promise<string> =>
  (await execa(python, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])).stdout.trim()

/** Runs a command, forwarding its output lines as progress (pip is slow; people want to see it move). */
const runLogged = async (cmd: string, args: ReadonlyArray<string>, progress: Progress, cwd?: string): Promise<void> => {
  const child = execa(cmd, args, { all: true, reject: false, ...(cwd ? { cwd } : {}), env: { PIP_DISABLE_PIP_VERSION_CHECK: "1" } })
  child.all?.on("data", (b: Buffer) => {
    for (const line of b.toString().split("\n")) if (line.trim()) progress(`  ${line.trim()}`)
  })
  const r = await child
  if (r.exitCode !== 0) throw new Error(`${cmd} ${args.join(" ")} failed with exit ${r.exitCode}:\n${String(r.all).slice(-3000)}`)
}

/** Looks for an existing, verified venv without building. */
export const cachedVenv = async (pinName: string, pin: Pin, source?: string): Promise<HermesVenv | null> => {
  const dir = venvDirFor(pinName, pin, source)
  const markerPath = join(dir, "hermetic-venv.json")
  if (!existsSync(markerPath)) return null
  const marker = JSON.parse(await readFile(markerPath, "utf8")) as Marker
  if (marker.lockHash !== pinHash(pin, source ? resolve(source) : "")) return null
  await verifyFiles(marker.packageRoot, pinName, pin)
  return {
    dir,
    python: join(dir, "bin", "python"),
    hermes: join(dir, "bin", "hermes"),
    packageRoot: marker.packageRoot,
    pythonVersion: marker.pythonVersion,
    built: false
  }
}

export const fetchPypiWheel = async (python: string, pinName: string, pin: Pin, progress: Progress): Promise<string> => {
  const pypi = pin.obtain.pypi
  if (!pypi) throw new PinUnavailable({ pin: pinName, reason: "no PyPI source in the lock", needed: [] })
  const wheelDir = join(cacheRoot(), "wheels", pinName)
  const wheel = join(wheelDir, pypi.wheel)
  if ((await sha256File(wheel)) !== pypi.wheelSha256) {
    await mkdir(wheelDir, { recursive: true })
    progress(`downloading ${pypi.wheel} from PyPI`)
    const spec = pypi.requirement.replace(/\[[^\]]*\]/, "")
    try {
      await runLogged(python, ["-m", "pip", "download", "--no-deps", "-q", "-d", wheelDir, spec], progress)
    } catch (e) {
      throw new PinUnavailable({
        pin: pinName,
        reason: `pip could not download ${spec}: ${(e as Error).message.split("\n")[0]}`,
        needed: ["a reachable PyPI (or PIP_INDEX_URL pointing at a mirror that has it)"]
      })
    }
  }
  const actual = await sha256File(wheel)
  if (actual !== pypi.wheelSha256) {
    throw new PinUnavailable({
      pin: pinName,
      reason: `downloaded wheel ${pypi.wheel} has sha256 ${actual}, the lock says ${pypi.wheelSha256}`,
      needed: ["the wheel PyPI published for this release (the lock digest)"]
    })
  }
  return wheel
}

/**
 * Returns a verified venv for the pin, building it when missing or stale. For a pin installed from
 * source, `source` is a checkout whose files must already match the lock before anything is installed.
 */
export const ensureVenv = async (
  pinName: string,
  pin: Pin,
  options: { readonly source?: string; readonly progress?: Progress } = {}
): Promise<HermesVenv> => {
  const progress = options.progress ?? (() => {})
  const source = options.source
  if (!pin.obtain.pypi && !source) {
    throw new PinUnavailable({
      pin: pinName,
      reason: "this pin is not on PyPI; it is installed editable from a source checkout",
      needed: [
        `--source DIR: a checkout of ${pin.tag ?? "the release"} (commit ${pin.commit ?? "?"}) whose files match the digests in source-lock.json`,
        ...(pin.obtain.sourceArchive ? [`or a machine that reaches ${pin.obtain.sourceArchive.url} (sha256 ${pin.obtain.sourceArchive.sha256})`] : []),
        ...(pin.obtain.image ? [`or, with --launcher container, a reachable registry serving ${pin.obtain.image.ref}@${pin.obtain.image.digest}`] : [])
      ]
    })
  }
  if (source) await verifyFiles(source, pinName, pin)
  const cached = await cachedVenv(pinName, pin, source).catch(() => null)
  if (cached) return cached

  const python = await findPython(pin.python)
  const dir = venvDirFor(pinName, pin, source)
  // Built in place (venv scripts hard-code their path, so no build-then-rename); the marker is written last.
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  try {
    progress(`creating venv ${dir} with ${python.path} (${python.version})`)
    await runLogged(python.path, ["-m", "venv", dir], progress)
    const vpy = join(dir, "bin", "python")
    let packageRoot: string
    if (source) {
      progress(`pip install -e ${source}[messaging] (a minute or two)`)
      await runLogged(vpy, ["-m", "pip", "install", "-q", "-e", `${resolve(source)}[messaging]`], progress)
      packageRoot = resolve(source)
    } else {
      const wheel = await fetchPypiWheel(vpy, pinName, pin, progress)
      const extras = /\[([^\]]*)\]/.exec(pin.obtain.pypi?.requirement ?? "")?.[1]
      progress(`pip install ${pin.obtain.pypi?.requirement} (a minute or two)`)
      await runLogged(vpy, ["-m", "pip", "install", "-q", extras ? `${wheel}[${extras}]` : wheel], progress)
      packageRoot = await purelib(vpy)
    }
    await verifyFiles(packageRoot, pinName, pin)
    const marker: Marker = { lockHash: pinHash(pin, source ? resolve(source) : ""), packageRoot, pythonVersion: python.version }
    await writeFile(join(dir, "hermetic-venv.json"), JSON.stringify(marker, null, 2))
    progress(`venv ready and verified against source-lock.json`)
    return { dir, python: vpy, hermes: join(dir, "bin", "hermes"), packageRoot, pythonVersion: python.version, built: true }
  } catch (e) {
    await rm(dir, { recursive: true, force: true })
    throw e
  }
}
