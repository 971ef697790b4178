/** "Did you mean": the candidate nearest to a mistyped name, if one is near enough to be what was meant (both CLIs, oracle and oracle-runner, use it). */

/** Levenshtein distance (insertions, deletions, substitutions), one row at a time. */
export const editDistance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = row
  }
  return previous[b.length] ?? 0
}

/**
 * The candidate at the smallest distance, when that distance is at most a third of the name's
 * length (at least 1, at most 3): `--worker` finds `--workers`, `--x` finds nothing. A candidate
 * that starts with the name (an abbreviation) counts as near too.
 */
export const closest = (name: string, candidates: ReadonlyArray<string>): string | undefined => {
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)))
  let best: { readonly candidate: string; readonly distance: number } | undefined
  for (const candidate of candidates) {
    const distance = name.length >= 3 && candidate.startsWith(name) ? 1 : editDistance(name, candidate)
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { candidate, distance }
  }
  return best?.candidate
}
