/**
 * A reader that goes away early (`oracle compare … | head -3`) must not end the run on the spot.
 * Node reports a write to a closed pipe as an 'error' event on the stream (EPIPE; it ignores
 * SIGPIPE), and an 'error' nobody listens to is an uncaught exception: the process exited 1 at
 * once, and the scopes that remove temp HERMES_HOMEs and stop gateways never closed. With this
 * listener the output is dropped instead, the run ends as it would have (evidence written, every
 * scope closed) and exits with its own code: 0, 1 or 2.
 */
const dropWhenClosed = (stream: NodeJS.WriteStream): void => {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE" || e.code === "ERR_STREAM_DESTROYED") return
    throw e
  })
}

export const tolerateClosedPipes = (): void => {
  dropWhenClosed(process.stdout)
  dropWhenClosed(process.stderr)
}
