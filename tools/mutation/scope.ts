/**
 * What the mutation score mutates: the emulator's behaviour code, the part that answers as the
 * gateway does. Left out, because no gateway has them: the CLI, the test helpers, record/replay
 * tooling, the admin (control) plane and snapshots. stryker.config.mjs holds the same list as globs.
 */
export const BEHAVIOUR_ROOT = "packages/emulator/src"

const NOT_BEHAVIOUR = ["/cli/", "/testing/", "/record/", "/admin/", "/snapshot/", "/namespace/"]

export const isBehaviourFile = (path: string): boolean =>
  path.startsWith(`${BEHAVIOUR_ROOT}/`) &&
  path.endsWith(".ts") &&
  path !== `${BEHAVIOUR_ROOT}/index.ts` &&
  !NOT_BEHAVIOUR.some((part) => path.includes(part))
