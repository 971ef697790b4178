/**
 * The scenario set of a comparison and its shards. The set is the scenario files (sorted by name)
 * then the scenarios generated from the seed, each with its position in that order; shard i of n
 * takes every n-th scenario starting at the i-th, so any machine can play its share of the same
 * set (same files, same seed) and `oracle merge` restores the order from the positions.
 */
import type { ScenarioInput } from "./compareAll.js"

export interface Shard {
  /** 1-based. */
  readonly index: number
  readonly count: number
}

/** `i/n` with 1 ≤ i ≤ n; undefined when the text is not one. */
export const parseShard = (text: string): Shard | undefined => {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim())
  if (m === null) return undefined
  const index = Number(m[1])
  const count = Number(m[2])
  return index >= 1 && index <= count ? { index, count } : undefined
}

/** Numbers the inputs by their place in the set. */
export const scenarioSet = (inputs: ReadonlyArray<ScenarioInput>): Array<ScenarioInput> => inputs.map((input, position) => ({ ...input, position }))

/** The scenarios shard `index/count` plays. */
export const shardOf = (set: ReadonlyArray<ScenarioInput>, shard: Shard | undefined): Array<ScenarioInput> =>
  shard === undefined ? [...set] : set.filter((input, k) => (input.position ?? k) % shard.count === shard.index - 1)
