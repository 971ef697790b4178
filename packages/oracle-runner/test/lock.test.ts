import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createHash } from "node:crypto"
import { NodeContext } from "@effect/platform-node"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { LockMismatch, PinUnavailable } from "../src/errors.js"
import { resolvePin } from "../src/gateway/Gateway.js"
import { decodeSourceLock, readSourceLock, type Pin } from "../src/lock/SourceLock.js"
import { verifyFiles } from "../src/lock/verifyFiles.js"
import { ensureVenv } from "../src/venv/HermesVenv.js"
import { inRange } from "../src/venv/findPython.js"

/** The typed failure of an Effect of the runner (files through the Node platform), or undefined when it succeeds. */
const failureOf = <E>(effect: Effect.Effect<unknown, E, NodeContext.NodeContext>) =>
  Effect.runPromise(effect.pipe(Effect.flip, Effect.option, Effect.provide(NodeContext.layer))).then((o) => (o._tag === "Some" ? o.value : undefined))

const readLock = () => Effect.runPromise(readSourceLock().pipe(Effect.provide(NodeContext.layer)))

const sha = (s: string) => createHash("sha256").update(s).digest("hex")

describe("source-lock.json", () => {
  it("decodes, names an existing default pin, and lists the design's 0.21.0 digests", async () => {
    const { lock } = await readLock()
    expect(lock.pins[lock.default]).toBeDefined()
    expect(lock.default).toBe("0.19.0")
    const p21 = lock.pins["0.21.0"]
    expect(p21?.commit).toBe("29112bef099274229cadff79cdff7bf7b99c4b77")
    expect(p21?.obtain.image?.digest).toBe("sha256:64923faeae267792bf9bf87fe3b4c4869e35004e360c7df01730ad801b74d524")
    expect(p21?.files["gateway/platforms/api_server.py"]).toBe("6aec6687d47c81b3567e930882a499c5c5c041ecbe40e1d08f93038212401962")
    expect(lock.pins["0.19.0"]?.obtain.pypi?.requirement).toBe("hermes-agent[messaging]==0.19.0")
  })

  it("rejects a malformed digest", () => {
    expect(() =>
      decodeSourceLock({ version: 1, default: "x", defaultReason: "", pins: { x: { release: "x", releaseDate: "", tag: null, commit: null, python: { min: "3.11", maxExclusive: "3.14" }, obtain: {}, files: { a: "nothex" } } } })
    ).toThrow()
  })

  it("refuses an unknown pin as unavailable instead of picking another", async () => {
    const { lock } = await readLock()
    expect(await failureOf(resolvePin(lock, "0.20.0"))).toBeInstanceOf(PinUnavailable)
    expect((await Effect.runPromise(resolvePin(lock, undefined))).name).toBe("0.19.0")
  })
})

describe("file verification", () => {
  const pinWith = (files: Record<string, string>): Pin => ({
    release: "t", releaseDate: "", tag: null, commit: null, python: { min: "3.11", maxExclusive: "3.14" }, obtain: {}, files
  })

  it("accepts matching files and reports each mismatch and missing file", async () => {
    const root = await mkdtemp(join(tmpdir(), "hermetic-lock-"))
    await mkdir(join(root, "gateway"), { recursive: true })
    await writeFile(join(root, "gateway", "a.py"), "A")
    await writeFile(join(root, "b.py"), "B")
    expect(await failureOf(verifyFiles(root, "t", pinWith({ "gateway/a.py": sha("A"), "b.py": sha("B") })))).toBeUndefined()
    const err = await failureOf(verifyFiles(root, "t", pinWith({ "gateway/a.py": sha("A"), "b.py": sha("not B"), "c.py": sha("C") })))
    expect(err).toBeInstanceOf(LockMismatch)
    expect((err as LockMismatch).mismatches.map((m) => [m.file, m.actual])).toEqual([["b.py", sha("B")], ["c.py", null]])
    await rm(root, { recursive: true, force: true })
  })

  it("refuses a pin without PyPI source and without --source, saying what is needed", async () => {
    const { lock } = await readLock()
    const err = await failureOf(ensureVenv("0.21.0", lock.pins["0.21.0"]!))
    expect(err).toBeInstanceOf(PinUnavailable)
    expect((err as PinUnavailable).needed.join("\n")).toMatch(/--source DIR/)
    expect((err as PinUnavailable).needed.join("\n")).toMatch(/registry/)
  })

  it("refuses a --source checkout whose files differ from the lock", async () => {
    const { lock } = await readLock()
    const root = await mkdtemp(join(tmpdir(), "hermetic-src-"))
    await mkdir(join(root, "gateway", "platforms"), { recursive: true })
    await writeFile(join(root, "gateway", "platforms", "api_server.py"), "# not the release\n")
    const err = await failureOf(ensureVenv("0.21.0", lock.pins["0.21.0"]!, { source: root }))
    await rm(root, { recursive: true, force: true })
    expect(err).toBeInstanceOf(LockMismatch)
  })

  it("checks python versions against the range", () => {
    const r = { min: "3.11", maxExclusive: "3.14" }
    expect([inRange("3.10.9", r), inRange("3.11.0", r), inRange("3.13.5", r), inRange("3.14.0", r)]).toEqual([false, true, true, false])
  })
})
