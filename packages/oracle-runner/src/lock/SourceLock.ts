/**
 * source-lock.json: which upstream Hermes each pin is, how a machine obtains it, and the digests
 * of the files that define its API server. The runner refuses to start a pin whose installed
 * files do not match these digests.
 */
import { FileSystem } from "@effect/platform"
import { Effect, Schema } from "effect"
import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { PinUnavailable } from "../errors.js"

const Sha256 = Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/))

export const PythonRange = Schema.Struct({
  /** Lowest supported "major.minor", inclusive. */
  min: Schema.String,
  /** First unsupported "major.minor". */
  maxExclusive: Schema.String
})
export type PythonRange = typeof PythonRange.Type

export const PypiSource = Schema.Struct({
  requirement: Schema.String,
  wheel: Schema.String,
  wheelSha256: Sha256,
  why: Schema.optional(Schema.String)
})

export const ImageSource = Schema.Struct({
  ref: Schema.String,
  digest: Schema.String.pipe(Schema.pattern(/^sha256:[0-9a-f]{64}$/)),
  digestConfirmed: Schema.Boolean,
  digestNote: Schema.optional(Schema.String)
})

export const ArchiveSource = Schema.Struct({
  url: Schema.String,
  sha256: Sha256,
  install: Schema.String
})

export const Pin = Schema.Struct({
  release: Schema.String,
  releaseDate: Schema.String,
  tag: Schema.NullOr(Schema.String),
  commit: Schema.NullOr(Schema.String),
  commitNote: Schema.optional(Schema.String),
  tree: Schema.optional(Schema.String),
  python: PythonRange,
  obtain: Schema.Struct({
    pypi: Schema.optional(PypiSource),
    image: Schema.optional(ImageSource),
    sourceArchive: Schema.optional(ArchiveSource)
  }),
  /** Path inside the installed package root (site-packages or a checkout) → SHA-256. */
  files: Schema.Record({ key: Schema.String, value: Sha256 }),
  filesNote: Schema.optional(Schema.String)
})
export type Pin = typeof Pin.Type

export const SourceLock = Schema.Struct({
  version: Schema.Literal(1),
  default: Schema.String,
  defaultReason: Schema.String,
  pins: Schema.Record({ key: Schema.String, value: Pin })
})
export type SourceLock = typeof SourceLock.Type

/** The repo root: three levels above this file (packages/oracle-runner/src/lock). */
export const repoRoot = (): string => join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..")

/** The package's own copy (put there by `npm pack`, see package.json's prepack) when installed; the repo's otherwise. */
export const defaultLockPath = (): string => {
  const packaged = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "source-lock.json")
  return existsSync(packaged) ? packaged : join(repoRoot(), "source-lock.json")
}

export const decodeSourceLock = Schema.decodeUnknownSync(SourceLock)

/** The lock at `path` (the default one when omitted); unreadable or invalid, the oracle cannot run: PinUnavailable. */
export const readSourceLock = (path: string = defaultLockPath()): Effect.Effect<{ lock: SourceLock; raw: string }, PinUnavailable, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(path)).pipe(
    Effect.flatMap((raw) => Effect.try(() => ({ lock: decodeSourceLock(JSON.parse(raw)), raw }))),
    Effect.mapError((e) =>
      new PinUnavailable({ pin: "?", reason: `source-lock.json cannot be read: ${e instanceof Error ? e.message : String(e)}`, needed: ["a valid source-lock.json"] })
    )
  )
