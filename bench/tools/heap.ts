// V8's old generation as the retention scripts read it, and the collections they force: what a
// construct keeps past two young-generation collections (scavenges) has been promoted to old space.
import v8 from "node:v8"

/** Old space plus large objects, in bytes. */
export const oldSpaceBytes = (): number =>
  v8.getHeapSpaceStatistics()
    .filter((s) => s.space_name === "old_space" || s.space_name === "large_object_space")
    .reduce((sum, s) => sum + s.space_used_size, 0)

/** `gc`, which node defines only when started with --expose-gc. */
export const exposedGc = (): NodeJS.GCFunction => {
  if (globalThis.gc === undefined) throw new Error("run node with --expose-gc")
  return globalThis.gc
}

/** Two young-generation collections: what survives both is in old space. */
export const twoScavenges = (gc: NodeJS.GCFunction): void => {
  gc({ type: "minor" })
  gc({ type: "minor" })
}

/** A few turns of the event loop and a timer, so that work scheduled after a run has run. */
export const settle = async (): Promise<void> => {
  for (let k = 0; k < 5; k++) await new Promise(setImmediate)
  await new Promise((r) => setTimeout(r, 2))
}

