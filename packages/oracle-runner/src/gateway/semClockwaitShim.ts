/**
 * Why the cron ticker never woke under libfaketime, and the fix.
 *
 * CPython 3.11 waits on a lock with a timeout (`threading.Event.wait(60)`, the cron ticker's
 * sleep) through glibc's `sem_clockwait(CLOCK_MONOTONIC, deadline)`. libfaketime 0.9.10 fakes
 * `clock_gettime(CLOCK_MONOTONIC)` (it returns epoch-like values, ~1.8e9 s) but does not intercept
 * `sem_clockwait` (only `sem_timedwait`), so the deadline Python computes from the faked clock is
 * handed to the kernel's real monotonic clock, which is ~57 years short of it: the wait never ends.
 * `FAKETIME_DONT_FAKE_MONOTONIC=1` would let it end, but then `time.sleep` fails with EINVAL
 * (libfaketime's `clock_nanosleep` mistranslates the absolute deadline), so it is no way out.
 *
 * The shim below is preloaded after libfaketime and interposes `sem_clockwait` alone: it waits on
 * the real monotonic clock in slices of at most 100 ms, and after each slice compares the faked
 * clock (libfaketime's `clock_gettime`) with the deadline. A timed wait thus lasts its timeout of
 * faked time: 60 s of running clock, or at once after a clock jump past it (within 100 ms), as
 * asyncio timers already do. It is compiled once with the host's C compiler into the runner's
 * cache; without a compiler the gateway runs as before (no job ticks under libfaketime).
 *
 * The wall-only clock (FakeClock's "wall" mode, what makes freezing possible) sets
 * FAKETIME_DONT_FAKE_MONOTONIC=1: the monotonic clock is real, so asyncio and thread waits go on
 * while time.time() stands still. There the shim's `clock_nanosleep` sends monotonic sleeps
 * straight to the kernel (libfaketime would mistranslate them into EINVAL); otherwise it hands them
 * to libfaketime. The shim is preloaded before libfaketime, so its `clock_nanosleep` is the one
 * found first, while its own clock readings still resolve to libfaketime's.
 */
import { createHash } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdir, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { execa } from "execa"
import { cacheRoot } from "../venv/cacheDir.js"

export const SEM_CLOCKWAIT_SHIM_SOURCE = `#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef int (*sem_clockwait_fn)(sem_t *, clockid_t, const struct timespec *);
typedef int (*clock_nanosleep_fn)(clockid_t, int, const struct timespec *, struct timespec *);

static long long ns_of(const struct timespec *t) { return (long long)t->tv_sec * 1000000000LL + t->tv_nsec; }

/* A timed wait measured on the (faked) clock it names, slept in real slices of at most 100 ms. */
int sem_clockwait(sem_t *sem, clockid_t clk, const struct timespec *abstime) {
  static sem_clockwait_fn real = 0;
  if (!real) real = (sem_clockwait_fn)dlsym(RTLD_NEXT, "sem_clockwait");
  for (;;) {
    struct timespec now;
    clock_gettime(clk, &now);
    long long left = ns_of(abstime) - ns_of(&now);
    if (left <= 0) { errno = ETIMEDOUT; return -1; }
    long long slice = left < 100000000LL ? left : 100000000LL;
    struct timespec real_now;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &real_now);
    long long until = ns_of(&real_now) + slice;
    struct timespec deadline = { until / 1000000000LL, until % 1000000000LL };
    if (real(sem, CLOCK_MONOTONIC, &deadline) == 0) return 0;
    if (errno != ETIMEDOUT) return -1;
  }
}

/* With a real monotonic clock (FAKETIME_DONT_FAKE_MONOTONIC=1) a monotonic sleep needs no translation. */
int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem) {
  static clock_nanosleep_fn next = 0;
  const char *real_monotonic = getenv("FAKETIME_DONT_FAKE_MONOTONIC");
  if ((clk == CLOCK_MONOTONIC || clk == CLOCK_MONOTONIC_RAW) && real_monotonic != 0 && strcmp(real_monotonic, "1") == 0) {
    long r = syscall(SYS_clock_nanosleep, clk, flags, req, rem);
    return r == 0 ? 0 : errno;
  }
  if (!next) next = (clock_nanosleep_fn)dlsym(RTLD_NEXT, "clock_nanosleep");
  return next(clk, flags, req, rem);
}
`

const digest = createHash("sha256").update(SEM_CLOCKWAIT_SHIM_SOURCE).digest("hex").slice(0, 12)

/** Path of the compiled shim (built on first use); null when no C compiler is at hand. */
export const semClockwaitShim = async (progress: (line: string) => void = () => {}): Promise<string | null> => {
  const dir = join(cacheRoot(), "native")
  const lib = join(dir, `libhermetic-semclockwait-${digest}.so`)
  if (existsSync(lib)) return lib
  await mkdir(dir, { recursive: true })
  const source = join(dir, `semclockwait-${digest}.c`)
  const partial = `${lib}.${process.pid}.partial`
  await writeFile(source, SEM_CLOCKWAIT_SHIM_SOURCE)
  const built = await execa("cc", ["-shared", "-fPIC", "-O2", "-o", partial, source, "-ldl"], { reject: false })
  if (built.exitCode !== 0) {
    progress(`no sem_clockwait shim (cc: ${built.failed && built.exitCode === undefined ? "not found" : built.stderr.slice(0, 200)}): job ticks will not follow the faked clock`)
    return null
  }
  // two gateways starting at once may both build it: the rename makes either result whole
  await rename(partial, lib)
  return lib
}
