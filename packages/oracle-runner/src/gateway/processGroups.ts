/**
 * Process groups this Node process started and has not reaped yet. A last-resort `exit` hook kills
 * them, so a crashed test or CLI never leaves a gateway behind (normal paths stop them first).
 */
const live = new Set<number>()
let hooked = false

export const trackGroup = (pgid: number): void => {
  live.add(pgid)
  if (!hooked) {
    hooked = true
    process.on("exit", () => {
      for (const g of live) killGroup(g, "SIGKILL")
    })
  }
}

export const untrackGroup = (pgid: number): void => {
  live.delete(pgid)
}

/** Signals a whole process group; false when it no longer exists. */
export const killGroup = (pgid: number, signal: NodeJS.Signals): boolean => {
  try {
    process.kill(-pgid, signal)
    return true
  } catch {
    return false
  }
}

export const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}
