/**
 * Server-made identifiers in Hermes' formats (uuid4 hex slices). Random by default; seeded for
 * reproducible tests, where the same seed yields the same ids in the same order.
 */
import { Context, Layer } from "effect"
import { nodeCrypto } from "./NodeCrypto.js"

export interface IdsShape {
  /** `n` lowercase hex characters (n ≤ 32, like a slice of uuid4().hex). */
  readonly hex: (n: number) => string
}

export class Ids extends Context.Tag("hermetic/Ids")<Ids, IdsShape>() {}

export const runId = (ids: IdsShape): string => `run_${ids.hex(32)}`
export const chatCompletionId = (ids: IdsShape): string => `chatcmpl-${ids.hex(29)}`
export const responseId = (ids: IdsShape): string => `resp_${ids.hex(28)}`
export const messageItemId = (ids: IdsShape): string => `msg_${ids.hex(24)}`

/**
 * 16 random bytes per id, taken from a pool refilled 4 KiB at a time: a randomBytes call per id
 * (what uuid4 reads from os.urandom) cost several µs of every POST /v1/runs.
 */
const POOL_BYTES = 4096
let pool = Buffer.alloc(0)
let offset = POOL_BYTES
const random16Hex = (): string => {
  if (offset + 16 > pool.length) {
    pool = nodeCrypto().randomBytes(POOL_BYTES)
    offset = 0
  }
  offset += 16
  return pool.toString("hex", offset - 16, offset)
}

export const randomIds: IdsShape = { hex: (n) => random16Hex().slice(0, n) }

/** The default Ids: random. */
export const IdsRandom = Layer.succeed(Ids, randomIds)

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

/** Reproducible Ids: the same seed hands out the same ids in the same order. */
export const IdsSeeded = (seed: number) => Layer.sync(Ids, () => makeSeededIds(seed))
