import { pyIsSpace } from "../../python/index.js"

/** `_oneline`: Python's str.split() words joined by one space (its whitespace, not JS's \s: \x1c-\x1f and U+0085 split, U+FEFF does not). */
export const oneLine = (s: string): string => {
  const words: Array<string> = []
  let word = ""
  for (const ch of s) {
    if (pyIsSpace(ch.codePointAt(0) as number)) {
      if (word !== "") words.push(word)
      word = ""
    } else word += ch
  }
  if (word !== "") words.push(word)
  return words.join(" ")
}
