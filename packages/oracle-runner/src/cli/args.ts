/** A small `--flag value` / `--flag=value` / `--switch` parser; enough for four subcommands. */
export type Args = { readonly positional: ReadonlyArray<string>; readonly flags: ReadonlyMap<string, string | true> }

export const parseArgs = (argv: ReadonlyArray<string>, switches: ReadonlyArray<string>): Args => {
  const positional: Array<string> = []
  const flags = new Map<string, string | true>()
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? ""
    if (!a.startsWith("--")) {
      positional.push(a)
      continue
    }
    const eq = a.indexOf("=")
    if (eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1))
    else if (switches.includes(a.slice(2))) flags.set(a.slice(2), true)
    else {
      const v = argv[i + 1]
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${a} needs a value`)
      flags.set(a.slice(2), v)
      i++
    }
  }
  return { positional, flags }
}

export class UsageError extends Error {}

export const flagString = (args: Args, name: string): string | undefined => {
  const v = args.flags.get(name)
  if (v === true) throw new UsageError(`--${name} needs a value`)
  return v
}

export const checkKnown = (args: Args, known: ReadonlyArray<string>): void => {
  for (const k of args.flags.keys()) if (!known.includes(k)) throw new UsageError(`unknown option --${k}`)
}
