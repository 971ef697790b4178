/** What `up` leaves for `down`: enough to stop the gateway even if `up` itself was killed. */
import { Schema } from "effect"
import { mkdir, readFile, rm, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { cacheRoot } from "../venv/cacheDir.js"

export const UpState = Schema.Struct({
  pid: Schema.Number,
  processGroup: Schema.NullOr(Schema.Number),
  pin: Schema.String,
  launcher: Schema.String,
  baseUrl: Schema.String,
  fakeModelUrl: Schema.String,
  tempRoot: Schema.String,
  logFile: Schema.String,
  container: Schema.optional(Schema.String),
  startedAt: Schema.String
})
export type UpState = typeof UpState.Type

export const stateFilePath = (): string => process.env["HERMETIC_STATE_FILE"] ?? join(cacheRoot(), "state", "up.json")

export const writeState = async (s: UpState): Promise<void> => {
  await mkdir(dirname(stateFilePath()), { recursive: true })
  await writeFile(stateFilePath(), JSON.stringify(s, null, 2))
}

export const readState = async (): Promise<UpState | null> => {
  try {
    return Schema.decodeUnknownSync(UpState)(JSON.parse(await readFile(stateFilePath(), "utf8")))
  } catch {
    return null
  }
}

export const clearState = async (): Promise<void> => {
  await rm(stateFilePath(), { force: true })
}
