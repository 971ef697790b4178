/**
 * Builds the gateway image for a PyPI pin without any registry: the debootstrap base image (made by
 * scripts/container-engine.sh) plus the pin's wheels, downloaded on the host into a wheelhouse and
 * installed in the image with --no-index. The image's installed files are checked against the lock
 * once, right after the build; the image is labelled with the lock hash it was verified for.
 * Files through platform's FileSystem, commands through exec/Command.ts.
 */
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FileSystem } from "@effect/platform"
import { Effect } from "effect"
import { LockMismatch, MissingTool, PinUnavailable } from "../errors.js"
import { runCommand } from "../exec/Command.js"
import type { Progress } from "../gateway/Launcher.js"
import type { Pin } from "../lock/SourceLock.js"
import { cacheRoot } from "../venv/cacheDir.js"
import { findPython } from "../venv/findPython.js"
import { pinHash } from "../venv/HermesVenv.js"
import { BASE_IMAGE, imageTagFor } from "./imageName.js"

/** Where the gateway's venv lives inside the image. */
// Not /opt/hermes: Hermes treats that path as its official image and refuses to run as root there.
export const IMAGE_VENV = "/opt/hermetic-venv"

const docker = (...args: ReadonlyArray<string>) => runCommand("docker", args)

export const imageExists = (ref: string): Effect.Effect<boolean> => Effect.map(docker("image", "inspect", ref), (r) => r.exitCode === 0)

/** Wheels for the image's Python (bookworm: CPython 3.11, glibc x86_64), fetched once into the cache. */
const ensureWheelhouse = (pinName: string, pin: Pin, progress: Progress) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const pypi = pin.obtain.pypi
    if (!pypi) return yield* new PinUnavailable({ pin: pinName, reason: "no PyPI source", needed: [] })
    const dir = join(cacheRoot(), "wheelhouse", `${pinName}-${pinHash(pin)}`)
    if (yield* fs.exists(join(dir, ".complete")).pipe(Effect.orElseSucceed(() => false))) return dir
    yield* Effect.orDie(fs.makeDirectory(dir, { recursive: true }))
    const python = yield* findPython(pin.python)
    progress(`downloading wheels for ${pypi.requirement} (python 3.11, manylinux x86_64) into ${dir}`)
    const r = yield* runCommand(
      python.path,
      ["-m", "pip", "download", "-q", "-d", dir, "--only-binary=:all:", "--python-version", "3.11",
        "--platform", "manylinux2014_x86_64", "--platform", "manylinux_2_17_x86_64", "--platform", "manylinux_2_28_x86_64",
        "--platform", "linux_x86_64", pypi.requirement],
      { env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" } as Record<string, string> }
    )
    if (r.exitCode !== 0) {
      return yield* new PinUnavailable({ pin: pinName, reason: `pip download failed: ${r.all.slice(-1500)}`, needed: ["a reachable PyPI"] })
    }
    yield* Effect.orDie(fs.writeFileString(join(dir, ".complete"), new Date().toISOString()))
    return dir
  })

const VERIFY_PY = `
import hashlib, json, sys, sysconfig
root = sysconfig.get_paths()["purelib"]
print(json.dumps({f: hashlib.sha256(open(root + "/" + f, "rb").read()).hexdigest() for f in json.loads(sys.argv[1])}))
`

/** The image's installed files against the lock (all of them must match). */
const verifyImage = (pinName: string, pin: Pin, tag: string) =>
  Effect.gen(function*() {
    const v = yield* docker("run", "--rm", "--network", "none", tag, `${IMAGE_VENV}/bin/python`, "-c", VERIFY_PY, JSON.stringify(Object.keys(pin.files)))
    const actual = v.exitCode === 0 ? (JSON.parse(v.stdout) as Record<string, string>) : {}
    const mismatches = Object.entries(pin.files)
      .filter(([f, d]) => actual[f] !== d)
      .map(([file, expected]) => ({ file, expected, actual: actual[file] ?? null }))
    if (mismatches.length > 0) {
      yield* docker("rmi", "-f", tag)
      return yield* new LockMismatch({ pin: pinName, mismatches })
    }
  })

export const ensureHermesImage = (pinName: string, pin: Pin, progress: Progress): Effect.Effect<string, PinUnavailable | LockMismatch | MissingTool, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const tag = imageTagFor(pinName, pin)
    if (yield* imageExists(tag)) {
      const label = (yield* docker("image", "inspect", "-f", "{{ index .Config.Labels \"hermetic.lock-hash\" }}", tag)).stdout.trim()
      if (label === pinHash(pin)) return tag
    }
    if (!(yield* imageExists(BASE_IMAGE))) {
      return yield* new MissingTool({ tool: `base image ${BASE_IMAGE}`, hint: "run scripts/container-engine.sh up (it builds it with debootstrap)" })
    }
    const wheels = yield* ensureWheelhouse(pinName, pin, progress)
    const fs = yield* FileSystem.FileSystem
    // the build context lives as long as the build
    yield* Effect.scoped(
      Effect.gen(function*() {
        const ctx = yield* Effect.orDie(fs.makeTempDirectoryScoped({ directory: tmpdir(), prefix: "hermetic-image-" }))
        yield* Effect.orDie(fs.copy(wheels, join(ctx, "wheels")))
        const req = pin.obtain.pypi?.requirement ?? ""
        yield* Effect.orDie(fs.writeFileString(
          join(ctx, "Dockerfile"),
          [
            `FROM ${BASE_IMAGE}`,
            "COPY wheels /wheels",
            // --no-index: the build never reaches a registry; everything comes from the host's wheelhouse.
            `RUN python3 -m venv ${IMAGE_VENV} && ${IMAGE_VENV}/bin/pip install -q --no-index --find-links /wheels "${req}" && rm -rf /wheels`,
            `LABEL hermetic.pin="${pinName}" hermetic.lock-hash="${pinHash(pin)}"`,
            `ENV PATH=${IMAGE_VENV}/bin:/usr/local/bin:/usr/bin:/bin`,
            ""
          ].join("\n")
        ))
        progress(`building image ${tag} from ${BASE_IMAGE} + wheels (a minute or two)`)
        const t0 = Date.now()
        const b = yield* docker("build", "--network", "none", "-q", "-t", tag, ctx)
        if (b.exitCode !== 0) return yield* new PinUnavailable({ pin: pinName, reason: `docker build failed:\n${b.all.slice(-3000)}`, needed: ["a working container engine and the base image"] })
        progress(`image built in ${((Date.now() - t0) / 1000).toFixed(0)} s; verifying installed files against the lock`)
      })
    )
    yield* verifyImage(pinName, pin, tag)
    return tag
  })
