/**
 * The gateway's wall clock under libfaketime (Debian package `faketime`), moved without a restart.
 *
 * The preload reads FAKETIME_TIMESTAMP_FILE on every time call (FAKETIME_NO_CACHE=1). The file
 * holds an offset from real time ("+3600.5"), so the faked clock keeps running after a set or an
 * advance. Verified with Python 3.11's time.time() and datetime.now().
 *
 * Caveat (libfaketime 0.9.10 on bookworm): FAKETIME_DONT_FAKE_MONOTONIC=1 makes Python's
 * time.sleep fail with EINVAL, so the monotonic clock is faked too and jumps with the wall clock.
 * A forward jump therefore fires pending asyncio timers at once (e.g. the run sweeper's 60 s
 * sleep); move the clock only at settle points, never backwards while requests are in flight.
 */
import { existsSync } from "node:fs"
import { rename, writeFile } from "node:fs/promises"
import { MissingTool } from "../errors.js"

export const FAKETIME_LIBS = [
  "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
  "/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1",
  "/usr/lib/faketime/libfaketimeMT.so.1"
]

export const findFaketimeLib = (): string | null => {
  const env = process.env["HERMETIC_FAKETIME_LIB"]
  if (env) return existsSync(env) ? env : null
  return FAKETIME_LIBS.find((p) => existsSync(p)) ?? null
}

export const requireFaketimeLib = (): string => {
  const lib = findFaketimeLib()
  if (!lib) {
    throw new MissingTool({
      tool: "libfaketime",
      hint: "apt-get update && apt-get install -y faketime (or set HERMETIC_FAKETIME_LIB to libfaketimeMT.so.1)"
    })
  }
  return lib
}

export class FakeClock {
  /** Seconds added to real time. */
  private offset = 0

  constructor(readonly timestampFile: string, private readonly realNow: () => number = () => Date.now() / 1000) {}

  /** Environment that puts a process under this clock. */
  env(lib: string): Record<string, string> {
    return { LD_PRELOAD: lib, FAKETIME_TIMESTAMP_FILE: this.timestampFile, FAKETIME_NO_CACHE: "1" }
  }

  /** The faked now, in epoch seconds. */
  now(): number {
    return this.realNow() + this.offset
  }

  async set(epochSeconds: number): Promise<void> {
    this.offset = epochSeconds - this.realNow()
    await this.write()
  }

  async advance(seconds: number): Promise<void> {
    this.offset += seconds
    await this.write()
  }

  async write(): Promise<void> {
    const s = this.offset.toFixed(3)
    // libfaketime re-reads this file on every time call: replace it atomically, never truncate it in place
    const next = `${this.timestampFile}.next`
    await writeFile(next, `${this.offset >= 0 ? "+" : ""}${s}\n`)
    await rename(next, this.timestampFile)
  }
}
