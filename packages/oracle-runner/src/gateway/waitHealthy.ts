/** Polls GET /health until the gateway answers 200, the process dies, or the deadline passes. */
export type HealthResult = { readonly ok: true; readonly body: string } | { readonly ok: false; readonly reason: string }

export const waitHealthy = async (
  baseUrl: string,
  options: { readonly timeoutMs: number; readonly exited: () => string | null; readonly intervalMs?: number }
): Promise<HealthResult> => {
  const deadline = Date.now() + options.timeoutMs
  let last = "no answer yet"
  while (Date.now() < deadline) {
    const died = options.exited()
    if (died !== null) return { ok: false, reason: died }
    try {
      const r = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2000) })
      const body = await r.text()
      if (r.status === 200) return { ok: true, body }
      last = `HTTP ${r.status}`
    } catch (e) {
      last = (e as Error).message
    }
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 200))
  }
  return { ok: false, reason: `no 200 from ${baseUrl}/health within ${options.timeoutMs} ms (last: ${last})` }
}
