/**
 * The divergence register: differences between the real gateway and the emulator that are
 * tolerated, each with a written reason. A difference that matches no entry (and is not learned
 * noise) is a divergence and fails the comparison. Kept in packages/diff/divergence-register.json.
 */
import { FileSystem } from "@effect/platform"
import { Effect, Schema } from "effect"
import type { NormalizedExchange } from "../normalize/NormalizedRun.js"
import type { Difference } from "./Difference.js"
import { DifferenceKind } from "./Difference.js"

/** What one side's answer to the exchange must be for an entry to hold; every field given must match. */
export const AnswerCondition = Schema.Struct({
  /** Glob on the raw status line ("HTTP/1.0 400 *"): holds only for exchanges that went over a raw socket. */
  statusLine: Schema.optional(Schema.String),
  /** One of these statuses. */
  status: Schema.optional(Schema.Array(Schema.Number))
})
export type AnswerCondition = typeof AnswerCondition.Type

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
  reason: Schema.String,
  /** Holds only when the two answers to the difference's exchange are so (any answers when absent). */
  when: Schema.optional(Schema.Struct({ reference: Schema.optional(AnswerCondition), candidate: Schema.optional(AnswerCondition) }))
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

/** The two normalized answers of the exchange a difference is in (absent for step-level differences). */
export interface ExchangeAnswers {
  readonly reference?: NormalizedExchange["response"]
  readonly candidate?: NormalizedExchange["response"]
}

const answerIs = (condition: AnswerCondition | undefined, answer: NormalizedExchange["response"]): boolean =>
  condition === undefined ||
  (answer !== undefined &&
    (condition.status === undefined || condition.status.includes(answer.status)) &&
    (condition.statusLine === undefined || (answer.head !== undefined && glob(condition.statusLine).test(answer.head.statusLine))))

export const registerEntryFor = (register: DivergenceRegister, d: Difference, pin: string, answers: ExchangeAnswers = {}): RegisterEntry | undefined =>
  register.entries.find(
    (e) =>
      (e.operation === "*" || e.operation === d.operation) &&
      (e.kind === undefined || e.kind === d.kind) &&
      glob(e.path).test(d.path) &&
      (e.pins === undefined || e.pins.includes(pin)) &&
      answerIs(e.when?.reference, answers.reference) &&
      answerIs(e.when?.candidate, answers.candidate)
  )
