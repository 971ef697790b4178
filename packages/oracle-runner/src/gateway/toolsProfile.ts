/**
 * The tools profile: the few Hermes tools whose results are deterministic and harmless, so a
 * scripted tool call runs for real behind the gateway and the emulator can answer alike.
 *
 * - `todo`: an in-memory list per agent; its result is a pure function of the call.
 * - `terminal`: the local backend, confined to the gateway's scratch work dir (`terminal.cwd`);
 *   scenarios only script `echo`-style commands there.
 * - the approval guard in `manual` mode: a command matching one of Hermes' dangerous patterns
 *   (e.g. `echo DROP TABLE t`, harmless once approved) stops for a decision; on /v1/runs that is
 *   `approval.request` and `POST /v1/runs/{id}/approval`.
 */
import { TOOLS_PROFILE_TOOLSETS } from "@hermetic/script"

/** Toolsets the strict profile disables (everything that could add prompt text or model calls). */
export const ALL_OPTIONAL_TOOLSETS: ReadonlyArray<string> = [
  "memory", "skills", "delegation", "terminal", "file", "web", "browser", "code_execution", "cronjob", "session_search", "todo"
]

export { TOOLS_PROFILE_TOOLSETS }

export const toolsProfile = (workDir: string): { readonly toolsets: ReadonlyArray<string>; readonly config: Record<string, unknown> } => ({
  toolsets: TOOLS_PROFILE_TOOLSETS,
  config: {
    terminal: { backend: "local", cwd: workDir, timeout: 30 },
    approvals: { mode: "manual", timeout: 60 }
  }
})
