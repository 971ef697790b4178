/**
 * A second run into the same `--out` would replace the first run's REPORT.md: refused (exit 2)
 * unless `--force` says so. Checked before the run, so a long comparison does not end in a refusal.
 */
import { join } from "node:path"
import { FileSystem } from "@effect/platform"
import { Effect } from "effect"
import { ReportExists } from "./CliError.js"

export const refuseExistingReport = (out: string, force: boolean | undefined): Effect.Effect<void, ReportExists, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    if (force === true) return
    const path = join(out, "REPORT.md")
    const exists = yield* Effect.flatMap(FileSystem.FileSystem, (fs) => fs.exists(path)).pipe(Effect.orElseSucceed(() => false))
    if (exists) return yield* new ReportExists({ path })
  })
