// The Effect ops and fibers a start of the emulator's Layer runs (a supervisor with op supervision), and
// the kinds of op (an op's internal `_op` tag). The built package (npm run build).
//   node --import tsx bench/tools/layer-ops.ts [data-dir]
import { Effect, Layer, ManagedRuntime, RuntimeFlags, Supervisor } from "effect"
import { Emulator, layer } from "@hermetic/emulator"
class Counting extends Supervisor.AbstractSupervisor<void> {
  fibers = 0; ops = 0; kinds = new Map<string, number>()
  get value() { return Effect.void }
  override onStart() { this.fibers++ }
  override onEffect(_f: unknown, e: unknown) {
    this.ops++
    const k = typeof e === "object" && e !== null && "_op" in e && typeof e._op === "string" ? e._op : "?"
    this.kinds.set(k, (this.kinds.get(k) ?? 0) + 1)
  }
}
const counting = new Counting()
const t0 = performance.now()
const runtime = ManagedRuntime.make(layer({ apiKey: "bench-key-0123456789abcdef", hermesVersion: "0.21.0", ...(process.argv[2] !== undefined ? { dataDir: process.argv[2] } : {}) }).pipe(Layer.provide(Supervisor.addSupervisor(counting)), Layer.provide(RuntimeFlags.enableOpSupervision)))
await runtime.runPromise(Emulator)
console.log("ms", (performance.now() - t0).toFixed(1), "fibers", counting.fibers, "ops", counting.ops, [...counting.kinds].sort((a, b) => b[1] - a[1]).slice(0, 15))
await runtime.dispose()
