/** The provenance fields the CLI knows: git state, source lock, installed versions, command line. */
import { Effect } from "effect"
import { emulatorGitState, installedVersions, sourceLockEntry } from "../evidence/provenance.js"

export const provenanceFor = (pin: string, launcher: string | undefined, realInstalled: boolean, runs: number, seed: number | undefined) =>
  Effect.gen(function*() {
    const git = yield* emulatorGitState
    const lock = yield* sourceLockEntry(pin)
    const installed = realInstalled ? yield* installedVersions(pin) : undefined
    return {
      emulatorCommit: git.commit,
      emulatorDirty: git.dirty,
      node: process.version,
      runs,
      command: ["oracle", ...process.argv.slice(2)].join(" "),
      ...(lock !== undefined ? { sourceLock: lock } : {}),
      ...(installed !== undefined ? { installed } : {}),
      ...(launcher !== undefined ? { launcher } : {}),
      ...(seed !== undefined ? { seed } : {})
    }
  })
