/**
 * The oracle runner, loaded only when a live target asks for it. `@hermetic/oracle-runner` is an
 * optional peer of this package: it brings testcontainers and execa (some 180 packages, install
 * scripts among them), which replay, report, merge and schema never use. So nothing in this package
 * imports it statically (only `import type`); the live targets (compare/record/bench against the
 * real gateway, fuzz, wire, the upload probe) come through here, and where it is not installed the
 * user reads what to install, with the version that matches this package.
 */
import { readFileSync } from "node:fs"
import type * as OracleRunnerModule from "@hermetic/oracle-runner"
import { Data, Effect, Either } from "effect"

export type OracleRunner = typeof OracleRunnerModule

const RUNNER = "@hermetic/oracle-runner"

/** The live target needs the oracle runner, and it is not installed: the message names the command that installs it. */
export class OracleRunnerMissing extends Data.TaggedError("OracleRunnerMissing")<{ readonly feature: string; readonly install: string }> {
  override get message(): string {
    return `${this.feature} starts the real Hermes gateway through ${RUNNER}, which is not installed (an optional peer of @hermetic/diff).\n` +
      `Install it beside @hermetic/diff:\n  ${this.install}`
  }
}

/** The peer range this package declares for the runner (src/ and dist/ both sit one level under the package root). */
const declaredRange = (): string => {
  try {
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { peerDependencies?: Record<string, string> }
    return manifest.peerDependencies?.[RUNNER] ?? "latest"
  } catch {
    return "latest"
  }
}

/** `npm i -D @hermetic/oracle-runner@X`, X this package's peer range with its caret dropped: the version released with it. */
export const installCommand = (range: string = declaredRange()): string => `npm i -D ${RUNNER}@${range.replace(/^[\^~]/, "")}`

/** Node's "this package is not installed" for the runner itself (not for one of its own dependencies: that is a broken install, reported as it is). */
export const isRunnerMissing = (e: unknown): boolean =>
  typeof e === "object" && e !== null && "code" in e && (e.code === "ERR_MODULE_NOT_FOUND" || e.code === "MODULE_NOT_FOUND") &&
  "message" in e && typeof e.message === "string" && e.message.includes(`'${RUNNER}'`)

let loaded: OracleRunner | undefined

/** The runner's module once a live target loaded it (the bench reads its containers' CPU from it); undefined before. */
export const loadedOracleRunner = (): OracleRunner | undefined => loaded

/**
 * Loads the runner once. `feature` names what asked ("--target process", "oracle fuzz") for the
 * message. On first load its interrupt guard goes in: execa's signal-exit would otherwise re-raise
 * a SIGINT past NodeRuntime's interruption (interruptGuard.ts in the runner).
 */
export const loadOracleRunner = (feature: string, importer: () => Promise<OracleRunner> = () => import("@hermetic/oracle-runner")): Effect.Effect<OracleRunner, OracleRunnerMissing> =>
  Effect.suspend(() => {
    if (loaded !== undefined) return Effect.succeed(loaded)
    return Effect.tryPromise({ try: importer, catch: (e) => e }).pipe(
      Effect.catchAll((e) => (isRunnerMissing(e) ? Effect.fail(new OracleRunnerMissing({ feature, install: installCommand() })) : Effect.die(e))),
      Effect.tap((runner) =>
        Effect.sync(() => {
          if (loaded !== undefined) return
          loaded = runner
          runner.guardInterrupts()
        })
      )
    )
  })

/** The same for the Promise-based commands (fuzz, the upload probe). */
export const loadOracleRunnerPromise = async (feature: string): Promise<OracleRunner> => {
  const loadedOrMissing = await Effect.runPromise(Effect.either(loadOracleRunner(feature)))
  if (Either.isLeft(loadedOrMissing)) throw loadedOrMissing.left
  return loadedOrMissing.right
}
