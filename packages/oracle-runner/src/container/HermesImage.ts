/**
 * Builds the gateway image for a PyPI pin without any registry: the debootstrap base image (made by
 * scripts/container-engine.sh) plus the pin's wheels, downloaded on the host into a wheelhouse and
 * installed in the image with --no-index. The image's installed files are checked against the lock
 * once, right after the build; the image is labelled with the lock hash it was verified for.
 */
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { execa } from "execa"
import { LockMismatch, MissingTool, PinUnavailable } from "../errors.js"
import type { Progress } from "../gateway/Launcher.js"
import type { Pin } from "../lock/SourceLock.js"
import { cacheRoot } from "../venv/cacheDir.js"
import { toPromise } from "../promiseFace.js"
import { findPython } from "../venv/findPython.js"
import { pinHash } from "../venv/HermesVenv.js"
import { BASE_IMAGE, imageTagFor } from "./imageName.js"

/** Where the gateway's venv lives inside the image. */
// Not /opt/hermes: Hermes treats that path as its official image and refuses to run as root there.
export const IMAGE_VENV = "/opt/hermetic-venv"

const docker = (args: ReadonlyArray<string>) => execa("docker", args, { reject: false })

export const imageExists = async (ref: string): Promise<boolean> => (await docker(["image", "inspect", ref])).exitCode === 0

/** Wheels for the image's Python (bookworm: CPython 3.11, glibc x86_64), fetched once into the cache. */
const ensureWheelhouse = async (pinName: string, pin: Pin, progress: Progress): Promise<string> => {
  const pypi = pin.obtain.pypi
  if (!pypi) throw new PinUnavailable({ pin: pinName, reason: "no PyPI source", needed: [] })
  const dir = join(cacheRoot(), "wheelhouse", `${pinName}-${pinHash(pin)}`)
  const done = join(dir, ".complete")
  if ((await readdir(dir).catch((): Array<string> => [])).includes(".complete")) return dir
  await mkdir(dir, { recursive: true })
  const python = await toPromise(findPython(pin.python))
  progress(`downloading wheels for ${pypi.requirement} (python 3.11, manylinux x86_64) into ${dir}`)
  const r = await execa(
    python.path,
    ["-m", "pip", "download", "-q", "-d", dir, "--only-binary=:all:", "--python-version", "3.11",
      "--platform", "manylinux2014_x86_64", "--platform", "manylinux_2_17_x86_64", "--platform", "manylinux_2_28_x86_64",
      "--platform", "linux_x86_64", pypi.requirement],
    { reject: false, all: true, env: { PIP_DISABLE_PIP_VERSION_CHECK: "1" } }
  )
  if (r.exitCode !== 0) {
    throw new PinUnavailable({ pin: pinName, reason: `pip download failed: ${String(r.all).slice(-1500)}`, needed: ["a reachable PyPI"] })
  }
  await writeFile(done, new Date().toISOString())
  return dir
}

const VERIFY_PY = `
import hashlib, json, sys, sysconfig
root = sysconfig.get_paths()["purelib"]
print(json.dumps({f: hashlib.sha256(open(root + "/" + f, "rb").read()).hexdigest() for f in json.loads(sys.argv[1])}))
`

export const ensureHermesImage = async (pinName: string, pin: Pin, progress: Progress): Promise<string> => {
  const tag = imageTagFor(pinName, pin)
  if (await imageExists(tag)) {
    const label = (await docker(["image", "inspect", "-f", "{{ index .Config.Labels \"hermetic.lock-hash\" }}", tag])).stdout.trim()
    if (label === pinHash(pin)) return tag
  }
  if (!(await imageExists(BASE_IMAGE))) {
    throw new MissingTool({ tool: `base image ${BASE_IMAGE}`, hint: "run scripts/container-engine.sh up (it builds it with debootstrap)" })
  }
  const wheels = await ensureWheelhouse(pinName, pin, progress)
  const ctx = await mkdtemp(join(tmpdir(), "hermetic-image-"))
  try {
    await cp(wheels, join(ctx, "wheels"), { recursive: true })
    const req = pin.obtain.pypi?.requirement ?? ""
    await writeFile(
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
    )
    progress(`building image ${tag} from ${BASE_IMAGE} + wheels (a minute or two)`)
    const t0 = Date.now()
    const b = await execa("docker", ["build", "--network", "none", "-q", "-t", tag, ctx], { reject: false, all: true })
    if (b.exitCode !== 0) throw new Error(`docker build failed:\n${String(b.all).slice(-3000)}`)
    progress(`image built in ${((Date.now() - t0) / 1000).toFixed(0)} s; verifying installed files against the lock`)
    const v = await docker(["run", "--rm", "--network", "none", tag, `${IMAGE_VENV}/bin/python`, "-c", VERIFY_PY, JSON.stringify(Object.keys(pin.files))])
    const actual = v.exitCode === 0 ? (JSON.parse(v.stdout) as Record<string, string>) : {}
    const mismatches = Object.entries(pin.files)
      .filter(([f, d]) => actual[f] !== d)
      .map(([file, expected]) => ({ file, expected, actual: actual[file] ?? null }))
    if (mismatches.length > 0) {
      await docker(["rmi", "-f", tag])
      throw new LockMismatch({ pin: pinName, mismatches })
    }
    return tag
  } finally {
    await rm(ctx, { recursive: true, force: true })
  }
}
