/**
 * How Hermes 0.19.0 shows a terminal command (and execute_code's code) in a tool's progress label
 * and a run's tool.started preview (`summarize_shell_command`, observed live): the one-lined command
 * is cut into parts at `&&`, `||` and `;` outside quotes; each part loses a pipe into a pager-like
 * tail and its redirections; parts that only set up the shell (cd, export, …) or print a boundary
 * marker are dropped; the first part left is shown, with how many others follow.
 */
import { pyStrip } from "../../python/index.js"
import { oneLine } from "./OneLine.js"

/** Commands that change the shell's state without doing the work: never the part a label shows. */
const SILENT_HEADS: ReadonlySet<string> = new Set(["cd", "pushd", "popd", "export", "set", "unset", "source", ".", "true", "false", ":"])
/** `… | head` and the like only trim the output: the pipe and what follows are dropped. */
const PIPE_TAIL_HEADS: ReadonlySet<string> = new Set(["head", "tail", "wc", "sort", "uniq"])

// Python's \d and \w on str patterns are Unicode classes.
/** A redirection operator whose target is the next word (`>`, `2>>`, `<`): both words go. */
const REDIRECT_TO_NEXT_WORD = /^\p{Nd}*(?:>>?|<)$/u
/** A descriptor duplication in one word (`2>&1`, `<&3`): the word goes. */
const DESCRIPTOR_DUPLICATION = /^\p{Nd}*[<>]&\p{Nd}+$/u
/** A leading `NAME=value` word: the head is the word after the assignments. */
const ASSIGNMENT = /^[A-Za-z_][\p{L}\p{N}_]*=/u
/** What marks an echo as wrapper plumbing (a separator line, an exit status); the command is one-lined, so a space is its only whitespace. */
const BOUNDARY_MARK = /-{2,}|_exit=|(?:^| |=)\$[?{]|PIPESTATUS/

const basename = (word: string): string => word.slice(word.lastIndexOf("/") + 1)

/**
 * Walks the command's code points with its quoting: a ' or " opens a quote that the same mark
 * closes unless a backslash precedes it (no other escaping). `onUnquoted` sees the rest and returns
 * how many code points it consumed, or 0 to keep the character.
 */
const scanQuoted = (chars: ReadonlyArray<string>, onUnquoted: (i: number) => number, keep: (ch: string) => void): void => {
  let quote: string | undefined
  let i = 0
  while (i < chars.length) {
    const ch = chars[i] as string
    if (quote !== undefined) {
      keep(ch)
      if (ch === quote && chars[i - 1] !== "\\") quote = undefined
      i += 1
      continue
    }
    if (ch === "'" || ch === "\"") {
      quote = ch
      keep(ch)
      i += 1
      continue
    }
    const consumed = onUnquoted(i)
    if (consumed > 0) i += consumed
    else {
      keep(ch)
      i += 1
    }
  }
}

/** The words of a part: runs of characters between unquoted spaces, quotes kept. */
const shellWords = (segment: string): Array<string> => {
  const chars = Array.from(segment)
  const words: Array<string> = []
  let word = ""
  scanQuoted(chars, (i) => {
    if (chars[i] !== " ") return 0
    if (word !== "") words.push(word)
    word = ""
    return 1
  }, (ch) => { word += ch })
  if (word !== "") words.push(word)
  return words
}

const withoutPipeTail = (segment: string): string => {
  const words = shellWords(segment)
  const cut = words.findIndex((word, i) => word === "|" && PIPE_TAIL_HEADS.has(basename(words[i + 1] ?? "")))
  return (cut === -1 ? words : words.slice(0, cut)).join(" ")
}

/** The parts between unquoted `&&`, `||` and `;` (a newline would cut too, but none is left in a one-lined command). */
const compoundParts = (command: string): Array<string> => {
  const chars = Array.from(command)
  const parts: Array<string> = []
  let part = ""
  const close = () => {
    const kept = withoutPipeTail(pyStrip(part))
    if (kept !== "") parts.push(kept)
    part = ""
  }
  scanQuoted(chars, (i) => {
    const pair = `${chars[i]}${chars[i + 1] ?? ""}`
    const length = pair === "&&" || pair === "||" ? 2 : chars[i] === ";" ? 1 : 0
    if (length > 0) close()
    return length
  }, (ch) => { part += ch })
  close()
  return parts
}

const withoutRedirections = (segment: string): string => {
  const words = shellWords(segment)
  const kept: Array<string> = []
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string
    if (REDIRECT_TO_NEXT_WORD.test(word)) i += 1
    else if (!DESCRIPTOR_DUPLICATION.test(word)) kept.push(word)
  }
  return kept.join(" ")
}

const headCommand = (segment: string): string => {
  const words = shellWords(segment)
  const head = words.find((word) => !ASSIGNMENT.test(word))
  return basename(head ?? "")
}

const isBoundaryEcho = (segment: string): boolean => {
  const [head, ...rest] = shellWords(segment)
  return basename(head ?? "") === "echo" && BOUNDARY_MARK.test(rest.join(" "))
}

/** The label of a command: "" for a blank one. */
export const summarizeShellCommand = (command: string): string => {
  const original = oneLine(command)
  if (original === "") return ""
  const parts = compoundParts(original)
  if (parts.length <= 1) return withoutRedirections(parts[0] ?? original) || original
  const core = parts
    .map(withoutRedirections)
    .filter((part) => part !== "" && !SILENT_HEADS.has(headCommand(part)) && !isBoundaryEcho(part))
  if (core.length === 0) return original
  const [first] = core as [string, ...Array<string>]
  const others = core.length - 1
  if (others === 0) return first
  return `${first} + ${others} ${others === 1 ? "command" : "commands"}`
}
