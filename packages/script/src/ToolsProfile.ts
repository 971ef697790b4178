/**
 * The toolsets the tools profile enables for the api_server platform, on both targets: the oracle
 * runner writes them into the real gateway's HERMES_HOME, the emulator takes them as
 * `enabledToolsets`. Here, not in the oracle runner, so that an offline `@hermetic/diff` (replay,
 * report, merge) reads them without installing the runner.
 */
export const TOOLS_PROFILE_TOOLSETS: ReadonlyArray<string> = ["terminal", "todo"]
