/** Median with min and max, so the noise of a shared 2-core machine stays visible. */
export interface Spread {
  readonly median: number
  readonly min: number
  readonly max: number
}

export const spread = (xs: ReadonlyArray<number>): Spread => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  const median = s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
  return { median, min: s[0] ?? 0, max: s[s.length - 1] ?? 0 }
}

export const fmt = (x: number, digits = 0): string => x.toFixed(digits)
export const fmtSpread = (s: Spread, digits = 0): string => `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`
