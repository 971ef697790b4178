/**
 * better-sqlite3's addon that cannot be loaded says what happened and what to run:
 * - in process, the error better-sqlite3 throws for an addon path that does not exist (its own
 *   `nativeBinding` option) is recognised and becomes NativeBindingUnavailable, which says so;
 * - the installed CLI (bin + bundle, as the tarball ships them) beside a better-sqlite3 whose
 *   prebuilds/ lacks this platform's file exits 1 with that message, not a stack trace.
 */
import { execFile } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import Database from "better-sqlite3"
import { afterAll, describe, expect, it } from "vitest"
import { bindingUnavailable, isBindingFailure } from "../../src/services/NativeBinding.js"

const missing = join(tmpdir(), "hermetic-no-such-dir", "better_sqlite3.node")

const emulatorDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
const temps: Array<string> = []
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})

describe("a native addon that cannot be loaded", () => {
  it("is recognised and explained: the platform, Node, the missing file and the command to run", () => {
    let thrown: unknown
    try {
      new Database(":memory:", { nativeBinding: missing }).close()
    } catch (e) {
      thrown = e
    }
    expect(isBindingFailure(thrown)).toBe(true)
    expect(isBindingFailure(new Error("SQLITE_CANTOPEN: unable to open database file"))).toBe(false)
    const error = bindingUnavailable(thrown)
    expect(error._tag).toBe("NativeBindingUnavailable")
    expect(error.message).toContain(`${process.platform}-${process.arch}, Node ${process.version}`)
    expect(error.message).toContain(missing)
    expect(error.message).toContain("npm rebuild better-sqlite3")
  })

  it("makes the installed CLI exit 1 with that message when prebuilds/ lacks this platform's addon", async () => {
    const bundle = join(emulatorDir, "dist", "hermes-emulator.cjs")
    expect(existsSync(bundle), "packages/emulator/dist has no CLI bundle: run npm run build").toBe(true)
    const root = mkdtempSync(join(tmpdir(), "hermetic-binding-"))
    temps.push(root)
    const installed = join(root, "node_modules", "@hermetic", "emulator")
    mkdirSync(installed, { recursive: true })
    for (const part of ["bin", "dist", "package.json"]) cpSync(join(emulatorDir, part), join(installed, part), { recursive: true })
    const sqlite = dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json"))
    const addon = `prebuilds/${process.platform}-${process.arch}.node`
    cpSync(sqlite, join(root, "node_modules", "better-sqlite3"), {
      recursive: true,
      filter: (source) => !source.endsWith(addon) && !source.includes(`${join(sqlite, "build")}`) && !source.includes(join(sqlite, "node_modules"))
    })
    expect(existsSync(join(root, "node_modules", "better-sqlite3", addon))).toBe(false)
    const result = await new Promise<{ code: number | null; stderr: string }>((done) => {
      execFile(process.execPath, [join(installed, "bin", "hermes-emulator.cjs"), "serve", "--port", "0", "--data-dir", join(root, "data")], { cwd: root, timeout: 60_000 }, (error, _stdout, stderr) =>
        done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stderr }))
    })
    expect(result.stderr).toContain("better-sqlite3's native addon could not be loaded")
    expect(result.stderr).toContain("npm rebuild better-sqlite3")
    expect(result.stderr).not.toMatch(/^\s+at /m)
    expect(result.code).toBe(1)
  }, 90_000)
})
