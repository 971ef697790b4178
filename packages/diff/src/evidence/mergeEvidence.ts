/**
 * `oracle merge`: the evidence of the shards of one scenario set joined into the evidence of the
 * whole set, through the same assembler a single comparison uses. Refuses shards that do not
 * belong together (another pin, seed, scenario count or shard count), a shard given twice, or a
 * missing shard — a merge that silently lacks scenarios would read as a smaller pass.
 */
import { Data } from "effect"
import type { DivergenceRegister } from "../diff/DivergenceRegister.js"
import { assembleEvidence } from "./assembleEvidence.js"
import type { Evidence } from "./Evidence.js"

export class MergeError extends Data.TaggedError("MergeError")<{ readonly reason: string }> {
  override get message(): string {
    return `cannot merge: ${this.reason}`
  }
}

const shardText = (e: Evidence) => (e.provenance.shard === undefined ? "unsharded" : `${e.provenance.shard.index}/${e.provenance.shard.count}`)

export const mergeEvidence = (parts: ReadonlyArray<Evidence>): Evidence => {
  const first = parts[0]
  if (first === undefined) throw new MergeError({ reason: "no evidence files given" })
  const count = first.provenance.shard?.count ?? 1
  for (const e of parts) {
    const p = e.provenance
    const same = (what: string, a: unknown, b: unknown) => {
      if (JSON.stringify(a) !== JSON.stringify(b)) throw new MergeError({ reason: `shard ${shardText(e)} has ${what} ${JSON.stringify(b)}, shard ${shardText(first)} ${JSON.stringify(a)}` })
    }
    same("pin", first.provenance.pin, p.pin)
    same("seed", first.provenance.seed, p.seed)
    same("runs", first.provenance.runs, p.runs)
    same("shard count", count, p.shard?.count ?? 1)
    same("reference kind", first.provenance.reference.kind, p.reference.kind)
    same("candidate kind", first.provenance.candidate.kind, p.candidate.kind)
    same("clock", first.normalization.clock, e.normalization.clock)
  }
  const indexes = parts.map((e) => e.provenance.shard?.index ?? 1)
  const missing = Array.from({ length: count }, (_, k) => k + 1).filter((i) => !indexes.includes(i))
  const twice = indexes.filter((i, k) => indexes.indexOf(i) !== k)
  if (twice.length > 0) throw new MergeError({ reason: `shard ${twice.join(", ")} given twice` })
  if (missing.length > 0) throw new MergeError({ reason: `shard ${missing.map((i) => `${i}/${count}`).join(", ")} missing` })

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
  return assembleEvidence({
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
  })
}
