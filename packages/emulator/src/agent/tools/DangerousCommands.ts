/**
 * The part of Hermes' approval guard (tools/approval.py, 0.19.0) the emulator reproduces: which
 * terminal commands stop for a user decision, and the key a decision is remembered under. Hermes
 * matches some seventy patterns against the lower-cased command; the emulator knows the SQL ones,
 * which the tools profile's scenarios use because `echo`ing them is harmless once approved. Any
 * other command is treated as safe here — a scenario that needs another pattern adds it. Of
 * upstream's normalisation only NUL removal and NFKC are reproduced: ANSI escapes (and 8-bit C1
 * controls) are not stripped, nor home prefixes folded.
 */
import { PY_SPACE_CLASS_BODY } from "../../python/index.js"

export interface DangerousMatch {
  /** What the approval is remembered under (Hermes uses the description as the key). */
  readonly patternKey: string
  readonly description: string
}

// Upstream matches on the NFKC-normalised command with Python's Unicode classes, not JavaScript's:
/** `\s`: str.isspace() (\x1c-\x1f count, U+FEFF does not). */
const SPACE = `[${PY_SPACE_CLASS_BODY}]`
/** `\w`: letters and digits of any script, and the underscore. */
const WORD = String.raw`[\p{L}\p{N}_]`
/** `\b` before a word's first letter, and after its last. */
const STARTS = `(?<!${WORD})`
const ENDS = `(?!${WORD})`

/** Our own expressions for upstream's SQL patterns (same matches on lower-cased commands). */
const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [new RegExp(`${STARTS}drop${SPACE}+(?:table|database)${ENDS}`, "u"), "SQL DROP"],
  [new RegExp(`${STARTS}delete${SPACE}+from${ENDS}(?![^\n]*${STARTS}where${ENDS})`, "u"), "SQL DELETE without WHERE"],
  [new RegExp(`${STARTS}truncate${SPACE}+(?:table)?${SPACE}*${WORD}`, "u"), "SQL TRUNCATE"]
]

/** What upstream matches (`_normalize_command_for_detection`, in part): NUL bytes dropped, NFKC (fullwidth letters fold to ASCII). */
const normalised = (command: string): string => command.replaceAll("\0", "").normalize("NFKC")

export const detectDangerousCommand = (command: string): DangerousMatch | undefined => {
  const lower = normalised(command).toLowerCase()
  for (const [re, description] of PATTERNS) if (re.test(lower)) return { patternKey: description, description }
  return undefined
}
