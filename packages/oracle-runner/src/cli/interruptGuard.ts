/**
 * Keeps SIGINT/SIGTERM handled for a whole CLI run, so that the first signal always reaches
 * NodeRuntime.runMain's interruption and every scope closes (gateways stopped, containers removed).
 *
 * Why: runMain removes its own listeners on the first signal. If execa has a subprocess running at
 * that moment (a `docker wait` during a container restart, a git or pip call), execa has loaded
 * signal-exit for its cleanup, which then finds itself the only listener left and raises the signal
 * again — the process died on the spot and its gateway containers stayed behind. With this
 * listener in place signal-exit leaves the signal alone; a second signal still ends the process
 * at once (exit 130), as a second Ctrl-C does elsewhere.
 */
export const guardInterrupts = (): void => {
  let signals = 0
  const onSignal = () => {
    if (++signals >= 2) process.exit(130)
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
}
