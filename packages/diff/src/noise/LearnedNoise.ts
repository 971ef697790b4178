/**
 * Noise learned from the real gateway itself (Diffy's idea): the same Scenario is played twice on
 * the real gateway and every difference between those two runs is noise for that operation and
 * path. A difference seen only between the real gateway and the emulator is a divergence.
 */
import { Schema } from "effect"
import { Difference, differenceSignature } from "../diff/Difference.js"

export const NoiseObservation = Schema.Struct({
  signature: Schema.String,
  scenario: Schema.String,
  /** One of the differences between the two real runs, as an example. */
  example: Difference
})
export type NoiseObservation = typeof NoiseObservation.Type

export class LearnedNoise {
  private readonly bySignature = new Map<string, NoiseObservation>()

  learn(scenario: string, differences: ReadonlyArray<Difference>): void {
    for (const d of differences) {
      const signature = differenceSignature(d)
      if (!this.bySignature.has(signature)) this.bySignature.set(signature, { signature, scenario, example: d })
    }
  }

  explain(d: Difference): NoiseObservation | undefined {
    return this.bySignature.get(differenceSignature(d))
  }

  get observations(): ReadonlyArray<NoiseObservation> {
    return [...this.bySignature.values()]
  }
}
