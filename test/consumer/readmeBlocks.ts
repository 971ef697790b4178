/**
 * The fenced blocks of a README, as the consumer test runs them. A block's info string says what
 * it is (GitHub and npm render by its first word alone, so the rest does not show):
 *
 *   ```sh consumer                      run, command by command, in a fresh project
 *   ```sh consumer serve=8642 expect="Hello there"
 *                                       a command still running once port 8642 answers is a server: it stays up
 *                                       until the README's blocks are done; the block's output must contain the text
 *   ```ts consumer                      written to a file and run with node (Node strips the types)
 *   ```ts consumer=vitest               written to a *.test.ts file and run with vitest
 *   ```sh not-consumer: WHY             not run, and why (a real gateway, a container engine, the repository)
 *
 * Blocks in a data language (json, text, yaml) are examples of a format, not commands. Any other
 * block with neither mark is an error: a README cannot add a command the test silently skips.
 */

export type BlockMark =
  | { readonly kind: "run"; readonly runner: "shell" | "node" | "vitest"; readonly serve?: number; readonly expect?: string }
  | { readonly kind: "excluded"; readonly reason: string }
  | { readonly kind: "data" }
  | { readonly kind: "unmarked" }

export interface Block {
  readonly lang: string
  /** 1-based line of the opening fence. */
  readonly line: number
  readonly body: string
  readonly mark: BlockMark
}

const DATA_LANGS = new Set(["json", "jsonc", "text", "txt", "yaml", "yml", "xml", "html", "diff"])

const markOf = (lang: string, rest: string): BlockMark => {
  const excluded = /^not-consumer:\s*(.*)$/.exec(rest)
  if (excluded !== null) return (excluded[1] ?? "").trim() === "" ? { kind: "unmarked" } : { kind: "excluded", reason: (excluded[1] ?? "").trim() }
  const run = /^consumer(?:=(\w+))?(.*)$/.exec(rest)
  if (run !== null) {
    const runner = lang === "sh" || lang === "bash" || lang === "shell" ? "shell" : run[1] === "vitest" ? "vitest" : "node"
    const serve = /\bserve=(\d+)/.exec(run[2] ?? "")?.[1]
    const expect = /\bexpect="([^"]*)"/.exec(run[2] ?? "")?.[1]
    return { kind: "run", runner, ...(serve !== undefined ? { serve: Number(serve) } : {}), ...(expect !== undefined ? { expect } : {}) }
  }
  return DATA_LANGS.has(lang) ? { kind: "data" } : { kind: "unmarked" }
}

/** Every fenced block (``` or ~~~, at most three spaces of indent), its info string read as above. */
export const fencedBlocks = (markdown: string): Array<Block> => {
  const lines = markdown.split("\n")
  const blocks: Array<Block> = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$/.exec(lines[i] ?? "")
    if (open === null) continue
    const fence = open[1] ?? "```"
    const body: Array<string> = []
    let j = i + 1
    while (j < lines.length && !new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`).test(lines[j] ?? "")) body.push(lines[j++] ?? "")
    const lang = (open[2] ?? "").toLowerCase()
    blocks.push({ lang, line: i + 1, body: body.join("\n"), mark: markOf(lang, (open[3] ?? "").trim()) })
    i = j
  }
  return blocks
}

/** A shell block's commands: `\`-continued lines joined, blank lines and whole-line comments dropped. */
export const shellCommands = (body: string): Array<string> => {
  const commands: Array<string> = []
  let current = ""
  for (const line of body.split("\n")) {
    const continued = /\\\s*$/.test(line)
    current += continued ? line.replace(/\\\s*$/, " ") : line
    if (continued) continue
    if (current.trim() !== "" && !current.trim().startsWith("#")) commands.push(current.trim())
    current = ""
  }
  if (current.trim() !== "") commands.push(current.trim())
  return commands
}

export interface Packed {
  readonly name: string
  readonly version: string
  readonly tarball: string
}

/**
 * An install command with the packed packages' names turned into their tarballs' paths (the
 * registry does not have them); everything else (the peers and their pinned ranges) as written.
 * A README that pins one of them to another version than the one packed is an error.
 */
export const rewriteInstall = (command: string, packed: ReadonlyArray<Packed>): string => {
  if (!/^npm\s+(i|install|add)\b/.test(command)) return command
  return command.split(/(\s+)/).map((word) => {
    const m = /^(@[\w-]+\/[\w.-]+)(?:@(\S+))?$/.exec(word)
    const pkg = m === null ? undefined : packed.find((p) => p.name === m[1])
    if (pkg === undefined || m === null) return word
    if (m[2] !== undefined && m[2] !== pkg.version && m[2] !== `^${pkg.version}`) {
      throw new Error(`${word}: the README pins ${pkg.name} to ${m[2]}, but ${pkg.version} is what is packed`)
    }
    return pkg.tarball
  }).join("")
}

/** The packed packages a README's install commands name (the rest reach its project as overrides). */
export const namedPackages = (commands: ReadonlyArray<string>, packed: ReadonlyArray<Packed>): Set<string> =>
  new Set(packed.filter((p) => commands.some((c) => /^npm\s+(i|install|add)\b/.test(c) && c.split(/\s+/).some((w) => w === p.name || w.startsWith(`${p.name}@`)))).map((p) => p.name))

/** The install size a README states ("That install pulls N packages in all"), which the consumer test measures. */
export const statedInstallCount = (markdown: string): number | undefined => {
  const m = /pulls (\d+) packages in all/.exec(markdown.replace(/\s+/g, " "))
  return m === null ? undefined : Number(m[1])
}
