/** Polls GET /health until the gateway answers 200, the process dies, or the deadline passes. */
import { Duration, Effect } from "effect"

export type HealthResult = { readonly ok: true; readonly body: string } | { readonly ok: false; readonly reason: string }

/**
 * One GET /health: the status and body, or why there was no answer. On a connection of its own
 * (`connection: close`): a probe's kept-alive socket would sit in fetch's pool until a scenario's
 * first request took it, and a clock jump before that request fires aiohttp's keep-alive timer,
 * which closes the socket under it (seen live: two parallel POSTs after a set to the future, as a
 * fresh gateway's first steps, failed with "other side closed" every time).
 */
const probeHealth = (baseUrl: string) =>
  Effect.tryPromise({
    try: async (signal) => {
      const r = await fetch(`${baseUrl}/health`, { headers: { connection: "close" }, signal: AbortSignal.any([signal, AbortSignal.timeout(2000)]) })
      return { status: r.status, body: await r.text() }
    },
    catch: (e) => (e instanceof Error ? e.message : String(e))
  })

export const waitHealthy = (
  baseUrl: string,
  options: { readonly timeoutMs: number; readonly exited: () => string | null; readonly intervalMs?: number }
): Effect.Effect<HealthResult> =>
  Effect.gen(function*() {
    const deadline = Date.now() + options.timeoutMs
    let last = "no answer yet"
    while (Date.now() < deadline) {
      const died = options.exited()
      if (died !== null) return { ok: false, reason: died } as const
      const answer = yield* Effect.either(probeHealth(baseUrl))
      if (answer._tag === "Right" && answer.right.status === 200) return { ok: true, body: answer.right.body } as const
      last = answer._tag === "Right" ? `HTTP ${answer.right.status}` : answer.left
      yield* Effect.sleep(Duration.millis(options.intervalMs ?? 200))
    }
    return { ok: false, reason: `no 200 from ${baseUrl}/health within ${options.timeoutMs} ms (last: ${last})` } as const
  })
