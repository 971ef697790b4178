/**
 * Python's `difflib.get_close_matches(word, possibilities, n=1, cutoff)`: the possibility most
 * similar to the word by `SequenceMatcher.ratio()`, when that ratio reaches the cutoff. Hermes
 * uses it as the last step of its tool-name repair (agent/tools/ToolNameRepair.ts). Strings are compared by
 * code point, as Python's str is.
 */

/** `SequenceMatcher(None, a, b).ratio()`: twice the matched characters over both lengths. */
export const sequenceRatio = (a: string, b: string): number => {
  const x = Array.from(a)
  const y = Array.from(b)
  const total = x.length + y.length
  return total === 0 ? 1 : (2 * matchedCount(x, y)) / total
}

/**
 * The best possibility at or above the cutoff; ties go to the greatest string, as
 * `heapq.nlargest` over (ratio, name) pairs picks them.
 */
export const closestMatch = (word: string, possibilities: Iterable<string>, cutoff: number): string | undefined => {
  let best: { readonly ratio: number; readonly name: string } | undefined
  for (const name of possibilities) {
    const ratio = sequenceRatio(name, word)
    if (ratio < cutoff) continue
    if (best === undefined || ratio > best.ratio || (ratio === best.ratio && name > best.name)) best = { ratio, name }
  }
  return best?.name
}

/** Where each element of b occurs; with b of 200 or more, elements seen over 1% are dropped (autojunk). */
const indexOfB = (b: ReadonlyArray<string>): Map<string, Array<number>> => {
  const b2j = new Map<string, Array<number>>()
  b.forEach((ch, j) => {
    const at = b2j.get(ch)
    if (at === undefined) b2j.set(ch, [j])
    else at.push(j)
  })
  if (b.length >= 200) {
    const popular = Math.floor(b.length / 100) + 1
    for (const [ch, at] of b2j) if (at.length > popular) b2j.delete(ch)
  }
  return b2j
}

/** The sum of `get_matching_blocks()` sizes: longest match first, then the parts either side of it. */
const matchedCount = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  const b2j = indexOfB(b)
  const queue: Array<readonly [number, number, number, number]> = [[0, a.length, 0, b.length]]
  let matched = 0
  for (let range = queue.pop(); range !== undefined; range = queue.pop()) {
    const [alo, ahi, blo, bhi] = range
    const [i, j, k] = longestMatch(a, b, b2j, alo, ahi, blo, bhi)
    if (k === 0) continue
    matched += k
    if (alo < i && blo < j) queue.push([alo, i, blo, j])
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi])
  }
  return matched
}

/**
 * `find_longest_match` without a junk function: the earliest longest block among the indexed
 * elements, then widened over equal neighbours (which brings autojunk's popular elements back in).
 */
const longestMatch = (
  a: ReadonlyArray<string>, b: ReadonlyArray<string>, b2j: ReadonlyMap<string, ReadonlyArray<number>>,
  alo: number, ahi: number, blo: number, bhi: number
): readonly [number, number, number] => {
  let besti = alo
  let bestj = blo
  let size = 0
  let lengths = new Map<number, number>()
  for (let i = alo; i < ahi; i++) {
    const next = new Map<number, number>()
    for (const j of b2j.get(a[i] as string) ?? []) {
      if (j < blo) continue
      if (j >= bhi) break
      const k = (lengths.get(j - 1) ?? 0) + 1
      next.set(j, k)
      if (k > size) {
        besti = i - k + 1
        bestj = j - k + 1
        size = k
      }
    }
    lengths = next
  }
  while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
    besti--
    bestj--
    size++
  }
  while (besti + size < ahi && bestj + size < bhi && a[besti + size] === b[bestj + size]) size++
  return [besti, bestj, size]
}
