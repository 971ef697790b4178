/**
 * The divergence register: differences between the real gateway and the emulator that are
 * tolerated, each with a written reason. A difference that matches no entry (and is not learned
 * noise) is a divergence and fails the comparison. Kept in packages/diff/divergence-register.json.
 */
import { FileSystem } from "@effect/platform"
import { Effect, Schema } from "effect"
import type { Difference } from "./Difference.js"
import { DifferenceKind } from "./Difference.js"

export const RegisterEntry = Schema.Struct({
  id: Schema.String,
  /** Operation id (runs.get, …) or "*". */
  operation: Schema.String,
  kind: Schema.optional(DifferenceKind),
  /** JSON path; `*` matches any run of characters (e.g. "$.response.body.frames[*].data.timestamp"). */
  path: Schema.String,
  /** Pins the entry holds for (all when absent). */
  pins: Schema.optional(Schema.Array(Schema.String)),
  /** "noise": not behaviour at all; "gap": real behaviour the emulator knowingly does not reproduce. */
  category: Schema.Literal("noise", "gap"),
  reason: Schema.String
})
export type RegisterEntry = typeof RegisterEntry.Type

export const DivergenceRegister = Schema.Struct({
  version: Schema.Literal(1),
  entries: Schema.Array(RegisterEntry)
})
export type DivergenceRegister = typeof DivergenceRegister.Type

export const EMPTY_REGISTER: DivergenceRegister = { version: 1, entries: [] }

export const registerPath = () => new URL("../../divergence-register.json", import.meta.url)

/** The register at `path` (the package's own by default); an unreadable or invalid register is a defect. */
export const loadRegister = (path: string | URL = registerPath()): Effect.Effect<DivergenceRegister, never, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(typeof path === "string" ? path : path.pathname)).pipe(
    Effect.map((text) => Schema.decodeUnknownSync(DivergenceRegister)(JSON.parse(text))),
    Effect.orDie
  )

const glob = (pattern: string) => new RegExp(`^${pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`)

export const registerEntryFor = (register: DivergenceRegister, d: Difference, pin: string): RegisterEntry | undefined =>
  register.entries.find(
    (e) =>
      (e.operation === "*" || e.operation === d.operation) &&
      (e.kind === undefined || e.kind === d.kind) &&
      glob(e.path).test(d.path) &&
      (e.pins === undefined || e.pins.includes(pin))
  )
