// Whether a port on 127.0.0.1 accepts a TCP connection yet: the cold-start scripts poll it every
// 2 ms, as bench/suites.ts does, before their first GET /health.
import { connect } from "node:net"

export const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = connect(port, "127.0.0.1")
    s.once("connect", () => { s.destroy(); resolve(true) })
    s.once("error", () => resolve(false))
  })

/** Polls until GET /health answers 200. */
export const untilHealthy = async (port: number): Promise<void> => {
  for (;;) {
    if (!(await accepts(port))) { await new Promise((r) => setTimeout(r, 2)); continue }
    const r = await fetch(`http://127.0.0.1:${port}/health`)
    await r.arrayBuffer()
    if (r.status === 200) return
  }
}
