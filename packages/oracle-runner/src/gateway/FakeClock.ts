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
import { FileSystem } from "@effect/platform"
import { Effect } from "effect"
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

  private constructor(
    readonly timestampFile: string,
    private readonly fs: FileSystem.FileSystem,
    private readonly realNow: () => number
  ) {}

  /** A clock at real time whose offset is kept in `timestampFile` (written by `write`, `set`, `advance`). */
  static make(timestampFile: string, realNow: () => number = () => Date.now() / 1000): Effect.Effect<FakeClock, never, FileSystem.FileSystem> {
    return Effect.map(FileSystem.FileSystem, (fs) => new FakeClock(timestampFile, fs, realNow))
  }

  /** Environment that puts a process under this clock. */
  env(lib: string): Record<string, string> {
    return { LD_PRELOAD: lib, FAKETIME_TIMESTAMP_FILE: this.timestampFile, FAKETIME_NO_CACHE: "1" }
  }

  /** The faked now, in epoch seconds. */
  now(): number {
    return this.realNow() + this.offset
  }

  set(epochSeconds: number): Effect.Effect<void> {
    return Effect.suspend(() => {
      this.offset = epochSeconds - this.realNow()
      return this.write
    })
  }

  advance(seconds: number): Effect.Effect<void> {
    return Effect.suspend(() => {
      this.offset += seconds
      return this.write
    })
  }

  /** libfaketime re-reads the file on every time call: it is replaced atomically, never truncated in place. */
  get write(): Effect.Effect<void> {
    return Effect.suspend(() => {
      const next = `${this.timestampFile}.next`
      const text = `${this.offset >= 0 ? "+" : ""}${this.offset.toFixed(3)}\n`
      return this.fs.writeFileString(next, text).pipe(Effect.zipRight(this.fs.rename(next, this.timestampFile)), Effect.orDie)
    })
  }
}
