/** Ids the scale bench seeds: `run_` + the index in 32 hex digits, so the parent can address any run. */
export const SCALE_KEY = "bench-key-0123456789abcdef"
export const scaleRunId = (i: number): string => `run_${i.toString(16).padStart(32, "0")}`
