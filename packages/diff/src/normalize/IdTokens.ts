/**
 * Identity-preserving tokens: each distinct server-made id becomes `<kind:N>`, N counting from 1
 * in order of first appearance on that side. Two sides agree when the same id reappears in the
 * same places (a run id echoed as session_id, in a later path, in an error message), whatever the
 * random bytes were.
 */
import { ID_RULES } from "./NormalizationRule.js"

export class IdTokens {
  private readonly tokens = new Map<string, string>()
  private readonly counters = new Map<string, number>()
  /** How often each rule fired, for the evidence. */
  readonly fired = new Map<string, number>()

  tokenize(text: string): string {
    let out = text
    for (const { id: rule, kind, pattern, embeds } of ID_RULES) {
      if (!pattern.test(out)) continue
      pattern.lastIndex = 0
      out = out.replace(pattern, (id: string, before: unknown, inner: unknown, after: unknown) => {
        this.fired.set(rule, (this.fired.get(rule) ?? 0) + 1)
        if (embeds === undefined) return this.token(kind, id)
        return `${String(before)}${this.token(embeds.kind, `${embeds.prefix}${String(inner)}`)}${String(after)}`
      })
    }
    return out
  }

  private token(kind: string, id: string): string {
    const known = this.tokens.get(id)
    if (known !== undefined) return known
    const n = (this.counters.get(kind) ?? 0) + 1
    this.counters.set(kind, n)
    const token = `<${kind}:${n}>`
    this.tokens.set(id, token)
    return token
  }

  /** The raw id behind a token, for reports that want to show it. */
  reverse(): ReadonlyMap<string, string> {
    return new Map([...this.tokens].map(([id, token]) => [token, id]))
  }
}
