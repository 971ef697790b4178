/** Why the oracle could not run. Every one of these maps to exit code 2 in the CLI. */
import { Data } from "effect"

/** The pin is not obtainable on this machine; `needed` says what would make it obtainable. */
export class PinUnavailable extends Data.TaggedError("PinUnavailable")<{
  readonly pin: string
  readonly reason: string
  readonly needed: ReadonlyArray<string>
}> {
  override get message(): string {
    return `pin ${this.pin} cannot be obtained here: ${this.reason}\nwhat would be needed:\n${this.needed.map((n) => `  - ${n}`).join("\n")}`
  }
}

/** Installed (or checked-out) files differ from source-lock.json. */
export class LockMismatch extends Data.TaggedError("LockMismatch")<{
  readonly pin: string
  readonly mismatches: ReadonlyArray<{ readonly file: string; readonly expected: string; readonly actual: string | null }>
}> {
  override get message(): string {
    return `installed files of pin ${this.pin} do not match source-lock.json:\n${this.mismatches
      .map((m) => `  ${m.file}: expected ${m.expected}, found ${m.actual ?? "(missing)"}`)
      .join("\n")}`
  }
}

/** A tool the runner needs (python in range, faketime, a container engine) is missing. */
export class MissingTool extends Data.TaggedError("MissingTool")<{
  readonly tool: string
  readonly hint: string
}> {
  override get message(): string {
    return `${this.tool} not available: ${this.hint}`
  }
}

/** The gateway process did not become ready, or died. `logTail` is the end of its log. */
export class GatewayStartFailed extends Data.TaggedError("GatewayStartFailed")<{
  readonly reason: string
  readonly logFile: string
  readonly logTail: string
}> {
  override get message(): string {
    return `gateway did not start: ${this.reason} (log: ${this.logFile})\n${this.logTail}`
  }
}

/** Building the pin's venv failed at one command (venv creation, pip install). */
export class VenvBuildFailed extends Data.TaggedError("VenvBuildFailed")<{
  readonly pin: string
  readonly command: string
  readonly exitCode: number | null
  readonly outputTail: string
}> {
  override get message(): string {
    return `building the venv of pin ${this.pin} failed: ${this.command} exited ${String(this.exitCode)}\n${this.outputTail}`
  }
}

export type OracleError = PinUnavailable | LockMismatch | MissingTool | GatewayStartFailed | VenvBuildFailed

const ORACLE_ERROR_TAGS: ReadonlySet<string> = new Set(["PinUnavailable", "LockMismatch", "MissingTool", "GatewayStartFailed", "VenvBuildFailed"])

/** Whether a value is one of the OracleErrors (by its tag). */
export const isOracleError = (e: unknown): e is OracleError =>
  typeof e === "object" && e !== null && ORACLE_ERROR_TAGS.has(String((e as { _tag?: unknown })._tag))
