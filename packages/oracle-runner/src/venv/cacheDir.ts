/** Where the runner keeps venvs, wheelhouses and image tarballs: outside the repo, reused across runs. */
import { homedir } from "node:os"
import { join } from "node:path"

export const cacheRoot = (): string =>
  process.env["HERMETIC_CACHE_DIR"] ?? join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "hermetic")
