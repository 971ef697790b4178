/**
 * fast-check parameters for every property test of the default suite: a fixed seed, so a run is
 * repeatable, unless FC_SEED says otherwise — `FC_SEED=1234` replays that seed, `FC_SEED=random`
 * draws one (the nightly job). A failure's message ends with the seed and how to replay it.
 */
import fc from "fast-check"

/** The seed a property runs on: FC_SEED's, a fresh one for FC_SEED=random, or the test's own. */
export const propertySeed = (fixedSeed: number, env: NodeJS.ProcessEnv = process.env): number => {
  const wanted = env["FC_SEED"]
  if (wanted === undefined || wanted === "") return fixedSeed
  if (wanted === "random") return Math.floor(Math.random() * 2 ** 31)
  if (!/^-?\d+$/.test(wanted)) throw new Error(`FC_SEED is an integer or "random", not ${wanted}`)
  return Number(wanted)
}

/** fc.assert's parameters: `params` on the seed above, reported with the seed on failure. */
export const propertyParams = <T>(fixedSeed: number, params: fc.Parameters<T> = {}): fc.Parameters<T> => {
  const seed = propertySeed(fixedSeed)
  return {
    ...params,
    seed,
    reporter: (details) => {
      if (!details.failed) return
      throw new Error(`${fc.defaultReportMessage(details) ?? "property failed"}\nseed ${seed}: replay with FC_SEED=${seed}`)
    }
  }
}
