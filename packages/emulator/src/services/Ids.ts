/**
 * Server-made identifiers in Hermes' formats (uuid4 hex slices). Random by default; seeded for
 * reproducible tests, where the same seed yields the same ids in the same order.
 */
import { Context, Layer } from "effect"
import { randomBytes } from "node:crypto"

export interface IdsShape {
  /** `n` lowercase hex characters (n ≤ 32, like a slice of uuid4().hex). */
  readonly hex: (n: number) => string
}

export class Ids extends Context.Tag("hermetic/Ids")<Ids, IdsShape>() {}

export const runId = (ids: IdsShape): string => `run_${ids.hex(32)}`
export const chatCompletionId = (ids: IdsShape): string => `chatcmpl-${ids.hex(29)}`
export const responseId = (ids: IdsShape): string => `resp_${ids.hex(28)}`
export const messageItemId = (ids: IdsShape): string => `msg_${ids.hex(24)}`

export const IdsRandom = Layer.succeed(Ids, { hex: (n) => randomBytes(16).toString("hex").slice(0, n) })

/** splitmix32: small, fast and good enough for reproducible identifiers. */
const splitmix32 = (seed: number) => {
  let a = seed >>> 0
  return (): number => {
    a = (a + 0x9e3779b9) >>> 0
    let t = a ^ (a >>> 16)
    t = Math.imul(t, 0x21f0aaad)
    t = t ^ (t >>> 15)
    t = Math.imul(t, 0x735a2d97)
    return (t ^ (t >>> 15)) >>> 0
  }
}

export const makeSeededIds = (seed: number): IdsShape => {
  const next = splitmix32(seed)
  return {
    hex: (n) => {
      let out = ""
      while (out.length < n) out += next().toString(16).padStart(8, "0")
      return out.slice(0, n)
    }
  }
}

export const IdsSeeded = (seed: number) => Layer.sync(Ids, () => makeSeededIds(seed))
