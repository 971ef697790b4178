/**
 * The toolsets GET /v1/toolsets lists for the api_server platform: name, label, description,
 * whether the keys it needs are configured, and the tools it expands to. Observed on the real
 * 0.19.0 gateway (evidence/cassette-sources/live/discovery-0.19.0.md); 0.21.0 is assumed to list the same
 * catalogue (inferred: its source is not available here). Which toolsets are *enabled* is
 * configuration, not catalogue: see `enabledToolsets` in the emulator options.
 */
export interface ToolsetInfo {
  readonly name: string
  readonly label: string
  readonly description: string
  readonly configured: boolean
  /** Sorted tool names, as `sorted(set(resolve_toolset(name)))` gives them. */
  readonly tools: ReadonlyArray<string>
}

/**
 * Tools a toolset gains once the gateway has run its first agent turn (the terminal tool module
 * registers its companions lazily). Observed on 0.19.0: `terminal` lists [process, terminal] on a
 * fresh gateway and [close_terminal, process, read_terminal, terminal] after any chat turn.
 */
export const TOOLS_AFTER_FIRST_AGENT_TURN: Readonly<Record<string, ReadonlyArray<string>>> = {
  terminal: ["close_terminal", "process", "read_terminal", "terminal"]
}

export const TOOLSET_CATALOG: ReadonlyArray<ToolsetInfo> = [
  { name: "web", label: "\ud83d\udd0d Web Search & Scraping", description: "web_search, web_extract", configured: true, tools: ["web_extract", "web_search"] },
  { name: "browser", label: "\ud83c\udf10 Browser Automation", description: "navigate, click, type, scroll", configured: true, tools: ["browser_back", "browser_cdp", "browser_click", "browser_console", "browser_dialog", "browser_get_images", "browser_navigate", "browser_press", "browser_scroll", "browser_snapshot", "browser_type", "browser_vision", "web_search"] },
  { name: "terminal", label: "\ud83d\udcbb Terminal & Processes", description: "terminal, process", configured: true, tools: ["process", "terminal"] },
  { name: "file", label: "\ud83d\udcc1 File Operations", description: "read, write, patch, search", configured: true, tools: ["patch", "read_file", "search_files", "write_file"] },
  { name: "code_execution", label: "\u26a1 Code Execution", description: "execute_code", configured: true, tools: ["execute_code"] },
  { name: "vision", label: "\ud83d\udc41\ufe0f  Vision / Image Analysis", description: "vision_analyze", configured: true, tools: ["vision_analyze"] },
  { name: "video", label: "\ud83c\udfac Video Analysis", description: "video_analyze (requires video-capable model)", configured: true, tools: ["video_analyze"] },
  { name: "image_gen", label: "\ud83c\udfa8 Image Generation", description: "image_generate", configured: true, tools: ["image_generate"] },
  { name: "video_gen", label: "\ud83c\udfac Video Generation", description: "video_generate (text/image/reference)", configured: true, tools: ["video_generate", "xai_video_edit", "xai_video_extend"] },
  { name: "x_search", label: "\ud83d\udc26 X (Twitter) Search", description: "x_search (requires xAI OAuth or XAI_API_KEY)", configured: true, tools: ["x_search"] },
  { name: "tts", label: "\ud83d\udd0a Text-to-Speech", description: "text_to_speech", configured: true, tools: ["text_to_speech"] },
  { name: "skills", label: "\ud83d\udcda Skills", description: "list, view, manage", configured: true, tools: ["skill_manage", "skill_view", "skills_list"] },
  { name: "todo", label: "\ud83d\udccb Task Planning", description: "todo", configured: true, tools: ["todo"] },
  { name: "memory", label: "\ud83d\udcbe Memory", description: "persistent memory across sessions", configured: true, tools: ["memory"] },
  { name: "context_engine", label: "\ud83e\udde9 Context Engine", description: "runtime tools from the active context engine", configured: true, tools: [] },
  { name: "session_search", label: "\ud83d\udd0e Session Search", description: "search past conversations", configured: true, tools: ["session_search"] },
  { name: "clarify", label: "\u2753 Clarifying Questions", description: "clarify", configured: true, tools: ["clarify"] },
  { name: "delegation", label: "\ud83d\udc65 Task Delegation", description: "delegate_task", configured: true, tools: ["delegate_task"] },
  { name: "cronjob", label: "\u23f0 Cron Jobs", description: "create/list/update/pause/resume/run, with optional attached skills", configured: true, tools: ["cronjob"] },
  { name: "homeassistant", label: "\ud83c\udfe0 Home Assistant", description: "smart home device control", configured: false, tools: ["ha_call_service", "ha_get_state", "ha_list_entities", "ha_list_services"] },
  { name: "spotify", label: "\ud83c\udfb5 Spotify", description: "playback, search, playlists, library", configured: true, tools: ["spotify_albums", "spotify_devices", "spotify_library", "spotify_playback", "spotify_playlists", "spotify_queue", "spotify_search"] },
  { name: "discord", label: "\ud83d\udcac Discord (read/participate)", description: "fetch messages, search members, create thread", configured: true, tools: ["discord"] },
  { name: "discord_admin", label: "\ud83d\udee1\ufe0f  Discord Server Admin", description: "list channels/roles, pin, assign roles", configured: true, tools: ["discord_admin"] },
  { name: "yuanbao", label: "\ud83e\udd16 Yuanbao", description: "group info, member queries, DM", configured: true, tools: ["yb_query_group_info", "yb_query_group_members", "yb_search_sticker", "yb_send_dm", "yb_send_sticker"] },
  { name: "computer_use", label: "\ud83d\uddb1\ufe0f  Computer Use (macOS/Windows/Linux)", description: "background desktop control via cua-driver", configured: true, tools: ["computer_use"] },
]

/**
 * The toolsets a stock HERMES_HOME enables for the api_server platform (observed with the oracle
 * runner's `upstream-defaults` home). The oracle runner's default (strict) home enables none, and
 * so does the emulator unless told otherwise.
 */
export const HERMES_DEFAULT_ENABLED_TOOLSETS: ReadonlyArray<string> = ["web", "browser", "terminal", "file", "code_execution", "vision", "image_gen", "skills", "todo", "memory", "session_search", "delegation", "cronjob"]


/**
 * The tools an agent of the api_server platform has: what a scripted tool call may name. Lazily
 * registered tools (close_terminal, read_terminal) show up in /v1/toolsets once the process is
 * warm but are not offered to the agent (observed live: "Available tools: process, terminal, todo").
 */
export const agentToolNames = (enabledToolsets: ReadonlyArray<string>): ReadonlySet<string> => enabledToolNames(enabledToolsets, false)

/** Every tool the enabled toolsets expand to (lazily registered ones once the process is warm). */
export const enabledToolNames = (enabledToolsets: ReadonlyArray<string>, warm: boolean): ReadonlySet<string> => {
  const on = new Set(enabledToolsets)
  const names = new Set<string>()
  for (const t of TOOLSET_CATALOG) {
    if (!on.has(t.name)) continue
    for (const tool of (warm ? TOOLS_AFTER_FIRST_AGENT_TURN[t.name] : undefined) ?? t.tools) names.add(tool)
  }
  return names
}
