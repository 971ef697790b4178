/**
 * The Idempotency-Key cache of /v1/chat/completions and /v1/responses (both pins): upstream's
 * process-global `_IdempotencyCache` (1000 entries, 300 s), keyed by the raw header value alone.
 * It caches the agent's outcome, not the HTTP answer: a replay rebuilds the envelope (new ids, new
 * timestamps; Responses even stores the replay as a new response). A key seen with another
 * fingerprint is simply computed again and overwrites the entry — there is no conflict error.
 * Concurrent identical requests share one in-flight computation.
 *
 * It lives in process memory, so it is tied to the emulated process (one `GatewayState`): a
 * restart forgets it, as a real restart does. Both routes share the one cache, as upstream's do.
 */
import { Deferred, Effect } from "effect"
import { nodeCrypto } from "../services/NodeCrypto.js"
import type { GatewayState } from "../services/GatewayProcess.js"
import { PyDict, pyRepr, type PyValue } from "../python/index.js"

export const IDEMPOTENCY_TTL_SECONDS = 300
export const IDEMPOTENCY_MAX_ITEMS = 1000

interface Entry {
  readonly value: unknown
  readonly fingerprint: string
  readonly ts: number
}

export class IdempotencyCache {
  /** Insertion-ordered, like upstream's OrderedDict (re-setting a key keeps its position). */
  private readonly store = new Map<string, Entry>()
  private readonly inflight = new Map<string, Deferred.Deferred<unknown>>()

  private purge(now: number): void {
    for (const [key, entry] of this.store) if (now - entry.ts > IDEMPOTENCY_TTL_SECONDS) this.store.delete(key)
    while (this.store.size > IDEMPOTENCY_MAX_ITEMS) {
      const oldest = this.store.keys().next()
      if (oldest.done === true) break
      this.store.delete(oldest.value)
    }
  }

  /** `get_or_set`: the cached value for (key, fingerprint), else `compute`'s, shared while in flight. */
  getOrSet<A, R>(
    key: string,
    fingerprint: string,
    now: () => number,
    compute: Effect.Effect<A, never, R>
  ): Effect.Effect<A, never, R> {
    return Effect.suspend(() => {
      this.purge(now())
      const hit = this.store.get(key)
      if (hit !== undefined && hit.fingerprint === fingerprint) return Effect.succeed(hit.value as A)
      const flightKey = `${key}\0${fingerprint}`
      const running = this.inflight.get(flightKey)
      if (running !== undefined) return Deferred.await(running) as Effect.Effect<A>
      return Effect.flatMap(Deferred.make<unknown>(), (done) => {
        this.inflight.set(flightKey, done)
        // Like asyncio.shield: the computation finishes even if this caller goes away.
        return compute.pipe(
          Effect.tap((v) =>
            Effect.sync(() => {
              this.store.set(key, { value: v, fingerprint, ts: now() })
              this.purge(now())
            })
          ),
          Effect.ensuring(Effect.sync(() => this.inflight.delete(flightKey))),
          Effect.tap((v) => Deferred.succeed(done, v)),
          Effect.uninterruptible
        )
      })
    })
  }
}

const caches = new WeakMap<GatewayState, IdempotencyCache>()

/** The cache of one emulated process. */
export const idempotencyCacheOf = (gateway: GatewayState): IdempotencyCache => {
  let cache = caches.get(gateway)
  if (cache === undefined) {
    cache = new IdempotencyCache()
    caches.set(gateway, cache)
  }
  return cache
}

/** `_make_request_fingerprint`: sha256 of repr({k: body.get(k) for k in keys}) as UTF-8. */
export const requestFingerprint = (body: PyDict, keys: ReadonlyArray<string>): string => {
  const subset = new PyDict(new Map<string, PyValue>(keys.map((k) => [k, body.entries.get(k) ?? null])))
  return nodeCrypto().createHash("sha256").update(pyRepr(subset), "utf8").digest("hex")
}
