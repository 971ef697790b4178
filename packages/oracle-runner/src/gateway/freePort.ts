/** A currently free TCP port on 127.0.0.1 (bind to 0, read it, close). */
import { createServer } from "node:net"
import { Effect } from "effect"

export const freePort: Effect.Effect<number> = Effect.async<number>((resume) => {
  const s = createServer()
  s.once("error", (e) => resume(Effect.die(e)))
  s.listen(0, "127.0.0.1", () => {
    const addr = s.address()
    const port = typeof addr === "object" && addr ? addr.port : 0
    s.close(() => resume(Effect.succeed(port)))
  })
})
