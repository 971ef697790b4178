/** Progress lines on stderr, so stdout stays the summary table. */
export const progress = (line: string) => process.stderr.write(`[oracle] ${line}\n`)
