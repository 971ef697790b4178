/**
 * Reading a recording directory (Recording.ts) for `hermes-emulator replay`. A recording may come
 * from someone else, so its files are read as untrusted: each must be a regular file of its own —
 * a symbolic link (which could point anywhere on this machine) or a FIFO (whose read would block
 * the start forever) is refused — and an error names the file and what is wrong with it, never
 * the file's content (a parser's message quotes the text it choked on).
 */
import { Data, Either, ParseResult, Schema } from "effect"
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, type Stats } from "node:fs"
import { join } from "node:path"
import { RecordedExchange, RecordingManifest } from "./Recording.js"

export interface Recording {
  readonly manifest: RecordingManifest
  readonly exchanges: ReadonlyArray<RecordedExchange>
}

export class RecordingError extends Data.TaggedError("RecordingError")<{ readonly message: string }> {}

const fail = (file: string, why: string): never => {
  throw new RecordingError({ message: `${file}: ${why}` })
}

const kindOf = (s: Stats): string =>
  s.isSymbolicLink()
    ? "a symbolic link"
    : s.isFIFO()
    ? "a FIFO"
    : s.isDirectory()
    ? "a directory"
    : s.isSocket()
    ? "a socket"
    : "a device"

/**
 * The text of `file`, which must be a regular file. lstat says what it is for the message; the
 * open itself neither follows a link nor waits on a FIFO, and fstat checks what was opened, so a
 * file swapped between the two is refused too.
 */
const readRegularFile = (file: string): string => {
  let stats: Stats
  try {
    stats = lstatSync(file)
  } catch (e) {
    return fail(file, `cannot read it (${(e as NodeJS.ErrnoException).code ?? "error"})`)
  }
  if (!stats.isFile()) return fail(file, `is ${kindOf(stats)}, not a regular file; a recording holds regular files only`)
  let fd: number
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (e) {
    return fail(file, `cannot open it (${(e as NodeJS.ErrnoException).code ?? "error"})`)
  }
  try {
    const opened = fstatSync(fd)
    if (!opened.isFile()) return fail(file, `is ${kindOf(opened)}, not a regular file; a recording holds regular files only`)
    return readFileSync(fd, "utf8")
  } finally {
    closeSync(fd)
  }
}

/** Where a decoded value is wrong and how (missing, wrong type…), without the value itself. */
const schemaProblems = (error: ParseResult.ParseError): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const shown = issues.slice(0, 3).map((i) => {
    const at = i.path.length === 0 ? "the top level" : i.path.map(String).join(".")
    const what = i._tag === "Missing" ? "is missing" : i._tag === "Unexpected" ? "is not expected" : "has the wrong type or value"
    return `${at} ${what}`
  })
  return `${shown.join("; ")}${issues.length > 3 ? ` (and ${issues.length - 3} more)` : ""}`
}

const decodeFile = <A, I>(schema: Schema.Schema<A, I>, file: string, what: string): A => {
  const text = readRegularFile(file)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return fail(file, `is not valid JSON, so not ${what}`)
  }
  const decoded = Schema.decodeUnknownEither(schema, { errors: "all" })(json)
  if (Either.isLeft(decoded)) return fail(file, `is not ${what}: ${schemaProblems(decoded.left)}`)
  return decoded.right
}

/** The recording in `dir`; throws RecordingError naming the file at fault. */
export const loadRecording = (dir: string): Recording => {
  const manifestFile = join(dir, "recording.json")
  try {
    lstatSync(manifestFile)
  } catch {
    return fail(dir, "is not a recording: no recording.json (make one with hermes-emulator record)")
  }
  const manifest = decodeFile(RecordingManifest, manifestFile, "a recording manifest")
  const exchangesDir = join(dir, "exchanges")
  const cannot = (e: unknown) => fail(exchangesDir, `cannot list it (${(e as NodeJS.ErrnoException).code ?? "error"})`)
  let stats: Stats
  try {
    stats = lstatSync(exchangesDir)
  } catch (e) {
    return cannot(e)
  }
  if (!stats.isDirectory()) return fail(exchangesDir, `is ${kindOf(stats)}, not a directory`)
  let names: Array<string>
  try {
    names = readdirSync(exchangesDir)
  } catch (e) {
    return cannot(e)
  }
  const exchanges = names
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => decodeFile(RecordedExchange, join(exchangesDir, f), "a recorded exchange"))
    .sort((a, b) => a.seq - b.seq)
  return { manifest, exchanges }
}
