/**
 * The gateway's wall clock under libfaketime (Debian package `faketime`), moved without a restart.
 *
 * The preload reads FAKETIME_TIMESTAMP_FILE on every time call (FAKETIME_NO_CACHE=1). The file
 * holds an offset from real time ("+3600.5"), so the faked clock keeps running after a set or an
 * advance. Verified with Python 3.11's time.time() and datetime.now().
 *
 * By default the monotonic clock is faked too and jumps with the wall clock: a forward jump fires
 * pending asyncio timers at once (e.g. the run sweeper's 60 s sleep); move the clock only at
 * settle points, never backwards while requests are in flight. The "wall" mode fakes the wall clock
 * alone and can freeze it (libfaketime 0.9.10 alone would fail time.sleep with EINVAL there; the
 * runner's shim mends that, semClockwaitShim.ts).
 */
import { existsSync } from "node:fs"
import { FileSystem } from "@effect/platform"
import { Effect } from "effect"

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

/**
 * "both" (the default): wall and monotonic clocks are faked and jump together, so a jump fires
 * asyncio timers and (with the sem_clockwait shim) thread waits; the clock cannot be frozen (the
 * event loop would stop). "wall": only the wall clock is faked (FAKETIME_DONT_FAKE_MONOTONIC=1,
 * with the shim's clock_nanosleep), so it can be frozen while the loop and threads keep real time;
 * a jump then fires no timer.
 */
export type FakeClockMode = "both" | "wall"

/** libfaketime's absolute form (a fixed, frozen time), in UTC as the gateway's TZ is. */
const absolute = (epochSeconds: number): string => new Date(Math.floor(epochSeconds) * 1000).toISOString().replace("T", " ").slice(0, 19)

export class FakeClock {
  /** Seconds added to real time. */
  private offset = 0
  /** The stopped time when frozen (whole seconds: libfaketime's absolute form has no fraction). */
  private frozenAt: number | undefined

  private constructor(
    readonly timestampFile: string,
    private readonly fs: FileSystem.FileSystem,
    private readonly realNow: () => number,
    readonly mode: FakeClockMode
  ) {}

  /** A clock at real time whose offset is kept in `timestampFile` (written by `write`, `set`, `advance`). */
  static make(timestampFile: string, realNow: () => number = () => Date.now() / 1000, mode: FakeClockMode = "both"): Effect.Effect<FakeClock, never, FileSystem.FileSystem> {
    return Effect.map(FileSystem.FileSystem, (fs) => new FakeClock(timestampFile, fs, realNow, mode))
  }

  /** Environment that puts a process under this clock. */
  env(lib: string): Record<string, string> {
    return {
      LD_PRELOAD: lib,
      FAKETIME_TIMESTAMP_FILE: this.timestampFile,
      FAKETIME_NO_CACHE: "1",
      ...(this.mode === "wall" ? { FAKETIME_DONT_FAKE_MONOTONIC: "1" } : {})
    }
  }

  /** The faked now, in epoch seconds. */
  now(): number {
    return this.frozenAt ?? this.realNow() + this.offset
  }

  set(epochSeconds: number): Effect.Effect<void> {
    return Effect.suspend(() => {
      if (this.frozenAt !== undefined) this.frozenAt = Math.floor(epochSeconds)
      else this.offset = epochSeconds - this.realNow()
      return this.write
    })
  }

  advance(seconds: number): Effect.Effect<void> {
    return Effect.suspend(() => {
      if (this.frozenAt !== undefined) this.frozenAt = Math.floor(this.frozenAt + seconds)
      else this.offset += seconds
      return this.write
    })
  }

  /** Stops the wall clock where it is, or lets it run on from there; only in "wall" mode. */
  freeze(frozen: boolean): Effect.Effect<void, Error> {
    return Effect.suspend(() => {
      if (this.mode !== "wall") {
        return Effect.fail(new Error("a clock faking the monotonic clock too cannot be frozen (the event loop would stop): start the gateway with the wall-only clock"))
      }
      if (frozen && this.frozenAt === undefined) this.frozenAt = Math.floor(this.now())
      if (!frozen && this.frozenAt !== undefined) {
        this.offset = this.frozenAt - this.realNow()
        this.frozenAt = undefined
      }
      return this.write
    })
  }

  /** libfaketime re-reads the file on every time call: it is replaced atomically, never truncated in place. */
  get write(): Effect.Effect<void> {
    return Effect.suspend(() => {
      const next = `${this.timestampFile}.next`
      const text = this.frozenAt !== undefined ? `${absolute(this.frozenAt)}\n` : `${this.offset >= 0 ? "+" : ""}${this.offset.toFixed(3)}\n`
      return this.fs.writeFileString(next, text).pipe(Effect.zipRight(this.fs.rename(next, this.timestampFile)), Effect.orDie)
    })
  }
}
