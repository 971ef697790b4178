/**
 * Progress on stderr, so stdout stays the summary (or the --json document). `progress(line)` is a
 * log line. `progressMeter` follows a run of N items: on a terminal, one bar redrawn in place with
 * the ETA (log lines are printed above it); elsewhere (a pipe, CI), one plain line per item, the
 * format scripts read (`[oracle] 3/40 [1.2s] equal name`).
 */
export const progress = (line: string): void => {
  if (meterInView !== undefined) meterInView.log(line)
  else process.stderr.write(`[oracle] ${line}\n`)
}

export interface MeterOptions {
  /** Draw the bar (default: whether stderr is a terminal). */
  readonly tty?: boolean
  readonly write?: (text: string) => void
  readonly now?: () => number
  /** The bar's width in columns (default: the terminal's, at most 100). */
  readonly columns?: number
  /** Off a terminal, a line every this many items (and for the last); default 1. */
  readonly lineEvery?: number
}

export interface ProgressMeter {
  /** One more item is done: `done` of `total`, `detail` says which (and how it went). */
  readonly tick: (done: number, detail: string) => void
  /** A log line; on a terminal it goes above the bar. */
  readonly log: (line: string) => void
  /** The run is over: the bar is cleared. */
  readonly end: () => void
}

/** The meter on screen, so log lines from elsewhere go above its bar. */
let meterInView: ProgressMeter | undefined

const seconds = (ms: number) => (ms >= 60_000 ? `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")}s` : `${(ms / 1000).toFixed(1)}s`)

/** The bar line: `[oracle] ████████░░░░░░░░ 12/40  30% 4.1s ETA 9.6s  detail` (cut to the width). */
export const renderBar = (done: number, total: number, elapsedMs: number, detail: string, columns: number): string => {
  const fraction = total === 0 ? 1 : Math.min(1, done / total)
  const eta = done === 0 ? "ETA ?" : `ETA ${seconds((elapsedMs / done) * (total - done))}`
  const width = 20
  const filled = Math.round(fraction * width)
  const line = `[oracle] ${"█".repeat(filled)}${"░".repeat(width - filled)} ${done}/${total} ${String(Math.round(fraction * 100)).padStart(3)}% ${seconds(elapsedMs)} ${eta}  ${detail}`
  return [...line].slice(0, columns - 1).join("")
}

export const progressMeter = (total: number, options: MeterOptions = {}): ProgressMeter => {
  const tty = options.tty ?? process.stderr.isTTY === true
  const write = options.write ?? ((text: string) => void process.stderr.write(text))
  const now = options.now ?? Date.now
  const columns = options.columns ?? Math.min(100, process.stderr.columns ?? 80)
  const t0 = now()
  let bar = ""
  const clear = () => {
    if (bar !== "") write("\r\x1b[K")
  }
  const meter: ProgressMeter = {
    tick: (done, detail) => {
      const elapsed = now() - t0
      if (!tty) {
        if (done % (options.lineEvery ?? 1) === 0 || done === total) write(`[oracle] ${done}/${total} [${(elapsed / 1000).toFixed(1)}s] ${detail}\n`)
        return
      }
      clear()
      bar = renderBar(done, total, elapsed, detail, columns)
      write(bar)
    },
    log: (line) => {
      clear()
      write(`[oracle] ${line}\n`)
      if (bar !== "") write(bar)
    },
    end: () => {
      clear()
      bar = ""
      if (meterInView === meter) meterInView = undefined
    }
  }
  if (tty) meterInView = meter
  return meter
}
