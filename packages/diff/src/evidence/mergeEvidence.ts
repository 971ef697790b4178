/**
 * `oracle merge`: the evidence of the shards of one scenario set joined into the evidence of the
 * whole set, through the same assembler a single comparison uses. Refuses shards that do not
 * belong together (another pin, seed, scenario count or shard count), a shard given twice, or a
 * missing shard — a merge that silently lacks scenarios would read as a smaller pass.
 */
import { Data, Either } from "effect"
import type { DivergenceRegister } from "../diff/DivergenceRegister.js"
import { assembleEvidence } from "./assembleEvidence.js"
import type { Evidence } from "./Evidence.js"

export class MergeError extends Data.TaggedError("MergeError")<{ readonly reason: string }> {
  override get message(): string {
    return `cannot merge: ${this.reason}`
  }
}

const shardText = (e: Evidence) => (e.provenance.shard === undefined ? "unsharded" : `${e.provenance.shard.index}/${e.provenance.shard.count}`)

/** Why these shards do not make one set, or undefined when they do. */
const mismatch = (parts: ReadonlyArray<Evidence>): string | undefined => {
  const first = parts[0]
  if (first === undefined) return "no evidence files given"
  const count = first.provenance.shard?.count ?? 1
  for (const e of parts) {
    const p = e.provenance
    const checks: ReadonlyArray<readonly [string, unknown, unknown]> = [
      ["pin", first.provenance.pin, p.pin],
      ["seed", first.provenance.seed, p.seed],
      ["runs", first.provenance.runs, p.runs],
      ["shard count", count, p.shard?.count ?? 1],
      ["reference kind", first.provenance.reference.kind, p.reference.kind],
      ["candidate kind", first.provenance.candidate.kind, p.candidate.kind],
      ["clock", first.normalization.clock, e.normalization.clock]
    ]
    const differs = checks.find(([, a, b]) => JSON.stringify(a) !== JSON.stringify(b))
    if (differs !== undefined) return `shard ${shardText(e)} has ${differs[0]} ${JSON.stringify(differs[2])}, shard ${shardText(first)} ${JSON.stringify(differs[1])}`
  }
  const indexes = parts.map((e) => e.provenance.shard?.index ?? 1)
  const missing = Array.from({ length: count }, (_, k) => k + 1).filter((i) => !indexes.includes(i))
  const twice = indexes.filter((i, k) => indexes.indexOf(i) !== k)
  if (twice.length > 0) return `shard ${twice.join(", ")} given twice`
  if (missing.length > 0) return `shard ${missing.map((i) => `${i}/${count}`).join(", ")} missing`
  return undefined
}

export const mergeEvidence = (parts: ReadonlyArray<Evidence>): Either.Either<Evidence, MergeError> => {
  const reason = mismatch(parts)
  const first = parts[0]
  if (reason !== undefined || first === undefined) return Either.left(new MergeError({ reason: reason ?? "no evidence files given" }))

  const fired = new Map<string, { reference: number; candidate: number }>()
  for (const e of parts) {
    for (const r of e.normalization.rules) {
      const entry = fired.get(r.id) ?? { reference: 0, candidate: 0 }
      entry.reference += r.fired.reference
      entry.candidate += r.fired.candidate
      fired.set(r.id, entry)
    }
  }
  const byIndex = [...parts].sort((a, b) => (a.provenance.shard?.index ?? 1) - (b.provenance.shard?.index ?? 1))
  // the register as the shards applied it (hits are recounted from the merged scenarios)
  const register: DivergenceRegister = { version: 1, entries: first.register.map(({ hits: _hits, ...entry }) => entry) }
  const startedAt = byIndex.map((e) => e.provenance.startedAt).sort()[0] ?? first.provenance.startedAt
  const finishedAt = byIndex.map((e) => e.provenance.finishedAt).sort().at(-1) ?? first.provenance.finishedAt
  const walls = byIndex.map((e) => e.summary.wallSeconds)
  const { shard: _shard, ...provenance } = first.provenance
  return Either.right(assembleEvidence({
    scenarios: byIndex.flatMap((e) => e.scenarios),
    fired,
    noise: { method: first.noise.method, observations: byIndex.flatMap((e) => e.noise.observations) },
    register,
    clock: first.normalization.clock,
    provenance: {
      ...provenance,
      command: ["oracle", ...process.argv.slice(2)].join(" "),
      startedAt,
      finishedAt,
      mergedFrom: byIndex.map((e) => ({
        shard: e.provenance.shard ?? { index: 1, count: 1 },
        command: e.provenance.command,
        startedAt: e.provenance.startedAt,
        finishedAt: e.provenance.finishedAt,
        wallSeconds: e.summary.wallSeconds ?? 0
      }))
    },
    // shards play side by side on their own machines: the campaign takes as long as its slowest shard
    ...(walls.every((w) => w !== undefined) ? { wallSeconds: Math.max(...(walls as Array<number>)) } : {})
  }))
}
