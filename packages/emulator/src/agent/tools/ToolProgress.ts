import { pyLen, pyStr, pyTruthy } from "../../python/index.js"
import { oneLine } from "./OneLine.js"
import { processLabel } from "./ProcessTool.js"
import { summarizeShellCommand } from "./ShellCommandSummary.js"
import { toolArgumentsOf } from "./ToolArguments.js"
/**
 * The `hermes.tool.progress` payloads of a streamed chat completion (0.19.0 source, observed live
 * with Hermes' default toolsets): "running" with the tool's emoji and a one-line label of its
 * arguments, then "completed". Tools whose name starts with "_" are internal and never shown.
 */

/** Each tool's registry emoji at 0.19.0 (read from the installed tool registry); "⚡" otherwise. */
const TOOL_EMOJI: Readonly<Record<string, string>> = {
  browser_back: "◀️", browser_cdp: "🧪", browser_click: "👆", browser_console: "🖥️", browser_dialog: "💬",
  browser_get_images: "🖼️", browser_navigate: "🌐", browser_press: "⌨️", browser_scroll: "📜", browser_snapshot: "📸",
  browser_type: "⌨️", browser_vision: "👁️", clarify: "❓", close_terminal: "🖥️", cronjob: "⏰", delegate_task: "🔀",
  execute_code: "🐍", ha_call_service: "🏠", ha_get_state: "🏠", ha_list_entities: "🏠", ha_list_services: "🏠",
  image_generate: "🎨", memory: "🧠", patch: "🔧", process: "⚙️", read_file: "📖", read_terminal: "🖥️",
  search_files: "🔎", session_search: "🔍", skill_manage: "📝", skill_view: "📚", skills_list: "📚",
  spotify_albums: "💿", spotify_devices: "🔈", spotify_library: "❤️", spotify_playback: "🎵", spotify_playlists: "📚",
  spotify_queue: "📻", spotify_search: "🔎", terminal: "💻", text_to_speech: "🔊", todo: "📋", video_analyze: "🎬",
  video_generate: "🎬", vision_analyze: "👁️", web_extract: "📄", web_search: "🔍", write_file: "✍️", x_search: "🐦",
  xai_video_edit: "video", xai_video_extend: "video", yb_query_group_info: "👥", yb_query_group_members: "📋",
  yb_search_sticker: "🔍", yb_send_dm: "✉️", yb_send_sticker: "🎨"
}

/** The argument each tool's label shows (`build_tool_preview`'s primary arguments). */
const PRIMARY_ARG: Readonly<Record<string, string>> = {
  terminal: "command", web_search: "query", web_extract: "urls", read_file: "path", write_file: "path", patch: "path",
  search_files: "pattern", browser_navigate: "url", browser_click: "ref", browser_type: "text", image_generate: "prompt",
  text_to_speech: "text", vision_analyze: "question", skill_view: "name", skills_list: "category", cronjob: "action",
  execute_code: "code", delegate_task: "goal", clarify: "question", skill_manage: "name"
}
const FALLBACK_ARGS = ["query", "text", "command", "path", "name", "prompt", "code", "goal"]

/**
 * A label for the call, or the tool name. Exact for `todo`, for terminal commands and execute_code
 * (summarised: ShellCommandSummary.ts) and for tools labelled by one primary argument (uncut: the
 * gateway's preview length is unlimited by default); tools with other bespoke upstream previews
 * (memory, read_file line ranges, …) get that argument as it is — an approximation.
 */
export const toolLabel = (name: string, argumentsJson: string): string => {
  const args = toolArgumentsOf(argumentsJson)
  if (Object.keys(args).length === 0) return name
  if (name === "todo") {
    const todos = args["todos"]
    if (todos === undefined || todos === null) return "reading task list"
    // len() of whatever todos is: a string's characters, a dict's keys (previewRaises covers the rest)
    const n = pyLen(todos) ?? 0
    return pyTruthy(args["merge"]) ? `updating ${n} task(s)` : `planning ${n} task(s)`
  }
  if (name === "process") return processLabel(args) ?? name
  if (name === "terminal" || name === "execute_code") {
    // str() of whatever the command is (a list included, unlike the primary-argument labels); null shows nothing
    const command = args[PRIMARY_ARG[name] as string]
    if (command === undefined || command === null) return name
    const summary = summarizeShellCommand(pyStr(command))
    return summary === "" ? name : summary
  }
  const key = PRIMARY_ARG[name] ?? FALLBACK_ARGS.find((k) => k in args)
  if (key === undefined || !(key in args)) return name
  let value: unknown = args[key]
  if (Array.isArray(value)) value = value.length > 0 ? value[0] : ""
  const preview = oneLine(pyStr(value))
  return preview === "" ? name : preview
}

/**
 * Whether `build_tool_preview` raises for the call: the todo label takes len() of a todos that has
 * none (a number, a bool). The callback that builds the preview then fails, so the tool's
 * started/running event is never sent; its completed event still is (observed live on 0.19.0).
 */
export const previewRaises = (call: { readonly name: string; readonly arguments: string }): boolean => {
  if (call.name !== "todo") return false
  const todos = toolArgumentsOf(call.arguments)["todos"]
  return todos !== undefined && todos !== null && pyLen(todos) === undefined
}

export const isInternalTool = (name: string): boolean => name.startsWith("_")

export const runningPayload = (call: { readonly id: string; readonly name: string; readonly arguments: string }) => ({
  tool: call.name,
  emoji: TOOL_EMOJI[call.name] ?? "⚡",
  label: toolLabel(call.name, call.arguments),
  toolCallId: call.id,
  status: "running"
})

export const completedPayload = (call: { readonly id: string; readonly name: string }) => ({
  tool: call.name,
  toolCallId: call.id,
  status: "completed"
})

/** `build_tool_preview` for run and session events: the label, or null when the tool has nothing to show. */
export const toolPreview = (call: { readonly name: string; readonly arguments: string }): string | null => {
  const label = toolLabel(call.name, call.arguments)
  return label === call.name ? null : label
}
