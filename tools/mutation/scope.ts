/**
 * What the mutation score mutates: the emulator's behaviour code, the part that answers as the
 * gateway does. Left out, because no gateway has them, so no recording of one can judge them: the
 * CLI and its start-up guard, the test helpers, record/replay tooling, the admin (control) plane
 * (its commands and their route rows) and its gate, the request journal, armed faults and what a
 * fired one answers, the fixed clock, snapshots, namespaces, and the storage layer's failure
 * reporting, integrity check and WAL checkpoint worker (file maintenance under --data-dir: what it
 * changes is when pages reach the database file, never what a route answers). Inside a behaviour
 * file, a branch only the emulator's keyless mode takes (0.19.0 refuses to start without a key)
 * carries a `// Stryker disable` comment saying so; the report counts those mutants as Ignored, by
 * reason. stryker.config.mjs imports these (Node strips the types), as globs.
 */
export const BEHAVIOUR_ROOT = "packages/emulator/src"

export const NOT_BEHAVIOUR = [
  "/cli/",
  "/testing/",
  "/record/",
  "/admin/",
  "/snapshot/",
  "/namespace/",
  "/journal/",
  "/services/Journal.ts",
  "/services/Faults.ts",
  "/services/FaultAnswer.ts",
  "/services/FixedClock.ts",
  "/services/StorageFailure.ts",
  "/services/StorageIntegrity.ts",
  "/services/WalCheckpointer.ts",
  "/http/AdminGate.ts",
  "/config/StartupGuard.ts"
]

export const isBehaviourFile = (path: string): boolean =>
  path.startsWith(`${BEHAVIOUR_ROOT}/`) &&
  path.endsWith(".ts") &&
  path !== `${BEHAVIOUR_ROOT}/index.ts` &&
  !NOT_BEHAVIOUR.some((part) => path.includes(part))

/** The same scope as Stryker's `mutate` globs: every source file, then each part left out. */
export const behaviourGlobs = (): Array<string> => [
  `${BEHAVIOUR_ROOT}/**/*.ts`,
  `!${BEHAVIOUR_ROOT}/index.ts`,
  ...NOT_BEHAVIOUR.map((part) => (part.endsWith("/") ? `!${BEHAVIOUR_ROOT}/**${part}**` : `!${BEHAVIOUR_ROOT}/**${part}`))
]
