/** Median with min and max, so the noise of a shared 2-core machine stays visible. */
export interface Spread {
  readonly median: number
  readonly min: number
  readonly max: number
}

export const spread = (xs: ReadonlyArray<number>): Spread => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  const median = s.length === 0 ? 0 : s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
  return { median, min: s[0] ?? 0, max: s[s.length - 1] ?? 0 }
}

/** Nearest-rank percentile of raw samples (0 for none). */
export const percentile = (xs: ReadonlyArray<number>, p: number): number => {
  if (xs.length === 0) return 0
  const s = [...xs].sort((a, b) => a - b)
  const rank = Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length)))
  return s[rank - 1] as number
}

export const fmt = (x: number, digits = 0): string => x.toFixed(digits)
export const fmtSpread = (s: Spread, digits = 0): string => `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`

/** Digits that keep small and large values readable in one column. */
export const auto = (x: number): number => (x === 0 ? 0 : Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : Math.abs(x) >= 1 ? 2 : 3)
export const fmtAuto = (s: Spread): string => `${fmt(s.median, auto(s.median))} (${fmt(s.min, auto(s.min))}–${fmt(s.max, auto(s.max))})`
