/**
 * better-sqlite3's native addon, when it cannot be loaded: what happened and what to run.
 * better-sqlite3 13 ships prebuilt addons inside its npm package (prebuilds/<platform>-<arch>.node,
 * loaded without an install script), so this happens on a platform or Node it has none for, when
 * the file is missing (a pruned or partial install), or when a build/Release addon compiled for
 * another Node is found first. The raw error ("Cannot find module …better_sqlite3.node",
 * "NODE_MODULE_VERSION …", "invalid ELF header") names none of that.
 */
import { Data } from "effect"

export class NativeBindingUnavailable extends Data.TaggedError("NativeBindingUnavailable")<{
  readonly message: string
  readonly cause: unknown
}> {}

const PREBUILT = ["linux-x64", "linux-arm64", "linuxmusl-x64", "linuxmusl-arm64", "darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64"]

/** Whether `error` (thrown by `new Database(…)`) is a native addon that could not be loaded. */
export const isBindingFailure = (error: unknown): boolean =>
  error instanceof Error &&
  (/better_sqlite3(\.node)?/.test(error.message) ||
    /NODE_MODULE_VERSION|invalid ELF header|wrong ELF class|Could not locate the bindings file|\.node: cannot open shared object/.test(error.message))

/** The error that says what happened (this platform, this Node, the loader's own words) and what to run. */
export const bindingUnavailable = (error: unknown): NativeBindingUnavailable => {
  const platform = `${process.platform}-${process.arch}`
  const raw = error instanceof Error ? error.message.split("\n")[0] ?? "" : String(error)
  const fits = PREBUILT.includes(platform)
  const message = [
    `better-sqlite3's native addon could not be loaded on ${platform}, Node ${process.version} (ABI ${process.versions.modules}): ${raw}`,
    fits
      ? "better-sqlite3 ships a prebuilt addon for this platform in its package (prebuilds/); this install lacks it or has an incompatible build/Release addon."
      : `better-sqlite3 ships prebuilt addons only for ${PREBUILT.join(", ")}; on ${platform} it must be compiled (python3, make and a C++ compiler).`,
    "Run `npm rebuild better-sqlite3` in your project (or reinstall: `rm -rf node_modules && npm install`); hermetic needs Node ≥ 22.12."
  ].join("\n")
  return new NativeBindingUnavailable({ message, cause: error })
}
