/**
 * The part of Hermes' approval guard (tools/approval.py, 0.19.0) the emulator reproduces: which
 * terminal commands stop for a user decision, and the key a decision is remembered under. Hermes
 * matches some seventy patterns against the lower-cased command; the emulator knows the SQL ones,
 * which the tools profile's scenarios use because `echo`ing them is harmless once approved. Any
 * other command is treated as safe here — a scenario that needs another pattern adds it.
 */

export interface DangerousMatch {
  /** What the approval is remembered under (Hermes uses the description as the key). */
  readonly patternKey: string
  readonly description: string
}

/** Our own expressions for upstream's SQL patterns (same matches on lower-cased commands). */
const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bdrop\s+(?:table|database)\b/, "SQL DROP"],
  [/\bdelete\s+from\b(?![^\n]*\bwhere\b)/, "SQL DELETE without WHERE"],
  [/\btruncate\s+(?:table)?\s*\w/, "SQL TRUNCATE"]
]

export const detectDangerousCommand = (command: string): DangerousMatch | undefined => {
  const lower = command.toLowerCase()
  for (const [re, description] of PATTERNS) if (re.test(lower)) return { patternKey: description, description }
  return undefined
}
