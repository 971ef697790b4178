import { SESSION_ACTIVITY_TABLES } from "./SessionActivity.js"

/**
 * The emulator's copy of the part of Hermes' state.db (hermes_state.SessionDB) that the API shows:
 * the `sessions` and `messages` tables, one set of rows per namespace (a namespace is one emulated
 * gateway, so one state.db). Message ids are AUTOINCREMENT in upstream: never reused, even after a
 * delete, so each namespace keeps its own counter.
 */
export const SESSION_TABLES: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS hermes_sessions (
     namespace TEXT NOT NULL,
     id TEXT NOT NULL,
     source TEXT NOT NULL,
     user_id TEXT,
     model TEXT,
     model_config TEXT,
     system_prompt TEXT,
     parent_session_id TEXT,
     started_at REAL NOT NULL,
     ended_at REAL,
     end_reason TEXT,
     message_count INTEGER NOT NULL DEFAULT 0,
     tool_call_count INTEGER NOT NULL DEFAULT 0,
     input_tokens INTEGER NOT NULL DEFAULT 0,
     output_tokens INTEGER NOT NULL DEFAULT 0,
     cache_read_tokens INTEGER NOT NULL DEFAULT 0,
     cache_write_tokens INTEGER NOT NULL DEFAULT 0,
     reasoning_tokens INTEGER NOT NULL DEFAULT 0,
     estimated_cost_usd REAL,
     actual_cost_usd REAL,
     title TEXT,
     api_call_count INTEGER NOT NULL DEFAULT 0,
     pinned INTEGER NOT NULL DEFAULT 0,
     archived INTEGER NOT NULL DEFAULT 0,
     hidden INTEGER NOT NULL DEFAULT 0,
     unread INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (namespace, id)
   )`,
  `CREATE TABLE IF NOT EXISTS hermes_messages (
     namespace TEXT NOT NULL,
     id INTEGER NOT NULL,
     session_id TEXT NOT NULL,
     role TEXT NOT NULL,
     content TEXT,
     tool_call_id TEXT,
     tool_calls TEXT,
     tool_name TEXT,
     timestamp REAL NOT NULL,
     token_count INTEGER,
     finish_reason TEXT,
     reasoning TEXT,
     reasoning_content TEXT,
     active INTEGER NOT NULL DEFAULT 1,
     compacted INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (namespace, id)
   )`,
  `CREATE INDEX IF NOT EXISTS hermes_messages_session ON hermes_messages (namespace, session_id, id)`,
  // the list walks compression chains parent to child, and takes each session's latest message time
  `CREATE INDEX IF NOT EXISTS hermes_sessions_parent ON hermes_sessions (namespace, parent_session_id)`,
  `CREATE INDEX IF NOT EXISTS hermes_messages_session_time ON hermes_messages (namespace, session_id, timestamp)`,
  // titles: the uniqueness check on create/patch/fork, and the "title #N" lookup of a fork (LIKE is
  // ASCII case-insensitive, so only a NOCASE index can serve its prefix)
  `CREATE INDEX IF NOT EXISTS hermes_sessions_title ON hermes_sessions (namespace, title)`,
  `CREATE INDEX IF NOT EXISTS hermes_sessions_title_nocase ON hermes_sessions (namespace, title COLLATE NOCASE)`,
  // the list reads compression roots apart (their activity is their chain's)
  `CREATE INDEX IF NOT EXISTS hermes_sessions_end_reason ON hermes_sessions (namespace, end_reason)`,
  ...SESSION_ACTIVITY_TABLES,
  `CREATE TABLE IF NOT EXISTS hermes_message_seq (
     namespace TEXT PRIMARY KEY,
     last_id INTEGER NOT NULL
   )`
]

export const SESSION_TABLE_NAMES = ["hermes_sessions", "hermes_messages", "hermes_message_seq"] as const

/** Tables derived from the ones above (kept by triggers): cleared with the namespace, never in a snapshot. */
export { SESSION_ACTIVITY_TABLE_NAMES as SESSION_DERIVED_TABLE_NAMES } from "./SessionActivity.js"
