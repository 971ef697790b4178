/**
 * Fresh state per scenario on the real gateway (`oracle compare --fresh`): every play of a
 * scenario gets a gateway of its own — a new process, a new HERMES_HOME (state.db,
 * response_store.db, config.yaml), a new fake model and port — so message ids, fork titles and
 * the like start where the emulator's fresh namespace starts, and can be compared instead of
 * learned as noise.
 *
 * Why not reset HERMES_HOME under a running gateway: 0.19.0 keeps state in its process too (run
 * statuses and event buffers, the chat idempotency cache, open connections to state.db and
 * response_store.db), so only a new process is fresh. A start costs about 1.1 s and a graceful
 * stop about 1.3 s on a quiet machine (measured; see evidence/fidelity2/README.md), so gateways are
 * started `ahead` in the background while a scenario plays, and a used one is stopped in the
 * background as soon as its scenario ends.
 */
import { type GatewayHandle, openGateway, type OracleError, startGateway } from "@hermetic/oracle-runner"
import { Effect, type Scope } from "effect"
import { type GatewayTargetOptions, gatewayDriver, rememberPristineConfig } from "./GatewayTarget.js"
import type { LiveDriver } from "./LiveDriver.js"
import { liveTarget } from "./liveTarget.js"
import type { Target } from "./Target.js"

export interface FreshGatewayOptions extends GatewayTargetOptions {
  /** How many fresh gateways to keep starting ahead of the one in use (default 1). */
  readonly ahead?: number
}

/** Pool counters, for the evidence: how many gateways were used and how long a play waited for one. */
export interface FreshPoolStats {
  started: number
  waitedMs: number
}

class FreshPool {
  private readonly queue: Array<Promise<GatewayHandle>> = []
  private readonly stopping = new Set<Promise<void>>()
  /** Gateways handed out and not yet retired: stopped on close. */
  private readonly inUse = new Set<GatewayHandle>()
  private closed = false
  readonly stats: FreshPoolStats = { started: 0, waitedMs: 0 }

  constructor(
    private readonly start: () => Promise<GatewayHandle>,
    private readonly ahead: number,
    first: GatewayHandle
  ) {
    this.inUse.add(first)
    this.stats.started = 1
  }

  /** Keeps `ahead` gateways starting or ready. */
  fill(): void {
    while (!this.closed && this.queue.length < this.ahead) {
      const next = this.start().then(async (gw) => {
        await rememberPristineConfig(gw)
        return gw
      })
      // a failure is reported to whoever takes this gateway, not as an unhandled rejection
      next.catch(() => {})
      this.stats.started++
      this.queue.push(next)
    }
  }

  /** The next fresh gateway (waits for it when it is still starting); starts another behind it. */
  async take(): Promise<GatewayHandle> {
    if (this.queue.length === 0) this.fill()
    const next = this.queue.shift() as Promise<GatewayHandle>
    this.fill()
    const t0 = performance.now()
    const gw = await next
    this.stats.waitedMs += performance.now() - t0
    this.inUse.add(gw)
    return gw
  }

  /** Stops a used gateway in the background. */
  retire(gw: GatewayHandle): void {
    this.inUse.delete(gw)
    const stop = gw.stop().catch(() => {})
    this.stopping.add(stop)
    void stop.then(() => this.stopping.delete(stop))
  }

  /** Stops everything still starting, ready or stopping. */
  async close(): Promise<void> {
    this.closed = true
    const pending = this.queue.splice(0)
    for (const gw of this.inUse) this.retire(gw)
    await Promise.all(pending.map((p) => p.then((gw) => gw.stop(), () => {})))
    await Promise.all([...this.stopping])
  }
}

/** A driver that plays each scenario on the next fresh gateway of the pool. */
const freshDriver = (pool: FreshPool, first: GatewayHandle): LiveDriver => {
  let current = first
  let used = false
  let inner = gatewayDriver(current)
  return {
    fetch: (path, init) => inner.fetch(path, init),
    get apiKey() {
      return current.apiKey
    },
    hiddenHeaders: () => inner.hiddenHeaders(),
    script: (s) => inner.script(s),
    release: (h) => inner.release(h),
    isHeld: (h) => inner.isHeld(h),
    clock: (c) => inner.clock(c),
    restart: (crash) => inner.restart(crash),
    reset: () => inner.reset(),
    drain: (on) => inner.drain(on),
    begin: async () => {
      if (used) {
        pool.retire(current)
        current = await pool.take()
        inner = gatewayDriver(current)
      }
      used = true
      await inner.begin()
    },
    end: (holds) => inner.end(holds),
    pollIntervalMs: 50,
    ...(inner.deadlineScale !== undefined ? { deadlineScale: inner.deadlineScale } : {}),
    sseDeadlineMs: inner.sseDeadlineMs
  }
}

/**
 * The real gateway as a Target with a fresh gateway per scenario play. The first gateway is
 * started before this returns (typed OracleErrors when it cannot: the venv may have to be built);
 * the rest are started ahead in the background. Everything stops when the scope closes.
 */
export const freshGatewayTarget = (options: FreshGatewayOptions): Effect.Effect<{ target: Target; stats: FreshPoolStats }, OracleError, Scope.Scope> =>
  Effect.gen(function*() {
    const gatewayOptions = {
      pin: options.pin,
      launcher: options.launcher,
      clock: options.wallClock === true ? { wallOnly: true } : {},
      ...(options.tools === true ? { tools: true } : {}),
      ...(options.source !== undefined ? { source: options.source } : {})
    }
    // only the first gateway reports progress (it may build the venv); one line per fresh gateway would drown the comparison's own
    const first = yield* Effect.acquireRelease(
      openGateway({ ...gatewayOptions, ...(options.progress ? { progress: options.progress } : {}) }),
      (gw) => Effect.promise(() => gw.stop())
    )
    yield* Effect.promise(() => rememberPristineConfig(first))
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => new FreshPool(() => startGateway(gatewayOptions), Math.max(1, options.ahead ?? 1), first)),
      (p) =>
        Effect.promise(async () => {
          await p.close()
          options.progress?.(`fresh gateways: ${p.stats.started} started; plays waited ${(p.stats.waitedMs / 1000).toFixed(1)} s in all for one to be ready`)
        })
    )
    pool.fill()
    const target = liveTarget(
      {
        kind: options.launcher === "process" ? "gateway-process" : "gateway-container",
        pin: first.pin,
        real: true,
        clock: "running",
        description: `real Hermes ${first.pin} gateway (${options.launcher} launcher, fake model, libfaketime), a fresh gateway per scenario play`
      },
      freshDriver(pool, first)
    )
    return { target, stats: pool.stats }
  })
