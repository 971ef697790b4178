/**
 * Each session's last activity as the list orders by it: its latest message time, or its start
 * when it has none (`COALESCE(MAX(messages.timestamp), started_at)`), kept in its own table with
 * an index in list order. Computing it per list call meant a pass over every session; kept here,
 * the list reads one page off the index. Triggers on the sessions and messages tables keep it, so
 * every writer (handlers, the agent, snapshot loads, deletes, a namespace reset) keeps it right
 * without knowing of it. It is derived state: never saved in a snapshot, rebuilt from the rows.
 */

/** The activity of session (ns, id), from its messages and start (an index lookup each). */
const activityOf = (ns: string, id: string, startedAt: string) =>
  `COALESCE((SELECT MAX(m.timestamp) FROM hermes_messages m WHERE m.namespace = ${ns} AND m.session_id = ${id}), ${startedAt})`

const refresh = (ns: string, id: string) =>
  `UPDATE hermes_session_activity SET active_at = ${activityOf(ns, id, "started_at")} WHERE namespace = ${ns} AND id = ${id};`

const insertFor = (row: "NEW") =>
  `INSERT OR REPLACE INTO hermes_session_activity (namespace, id, active_at, started_at)
     VALUES (${row}.namespace, ${row}.id, ${activityOf(`${row}.namespace`, `${row}.id`, `${row}.started_at`)}, ${row}.started_at);`

// Trigger names carry a version: a data dir keeps its triggers, and CREATE ... IF NOT EXISTS
// would keep an old body under an unchanged name.
export const SESSION_ACTIVITY_TABLES: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS hermes_session_activity (
     namespace TEXT NOT NULL,
     id TEXT NOT NULL,
     active_at REAL NOT NULL,
     started_at REAL NOT NULL,
     PRIMARY KEY (namespace, id)
   ) WITHOUT ROWID`,
  // the list's order: last activity, then start, then id, all descending (read backwards)
  `CREATE INDEX IF NOT EXISTS hermes_session_activity_order ON hermes_session_activity (namespace, active_at, started_at, id)`,
  `CREATE TRIGGER IF NOT EXISTS hermes_session_activity_v1_session_insert AFTER INSERT ON hermes_sessions BEGIN
     ${insertFor("NEW")}
   END`,
  `CREATE TRIGGER IF NOT EXISTS hermes_session_activity_v1_session_rekey AFTER UPDATE OF namespace, id, started_at ON hermes_sessions BEGIN
     DELETE FROM hermes_session_activity WHERE namespace = OLD.namespace AND id = OLD.id;
     ${insertFor("NEW")}
   END`,
  `CREATE TRIGGER IF NOT EXISTS hermes_session_activity_v1_session_delete AFTER DELETE ON hermes_sessions BEGIN
     DELETE FROM hermes_session_activity WHERE namespace = OLD.namespace AND id = OLD.id;
   END`,
  `CREATE TRIGGER IF NOT EXISTS hermes_session_activity_v1_message_insert AFTER INSERT ON hermes_messages BEGIN
     ${refresh("NEW.namespace", "NEW.session_id")}
   END`,
  `CREATE TRIGGER IF NOT EXISTS hermes_session_activity_v1_message_delete AFTER DELETE ON hermes_messages BEGIN
     ${refresh("OLD.namespace", "OLD.session_id")}
   END`,
  `CREATE TRIGGER IF NOT EXISTS hermes_session_activity_v1_message_move AFTER UPDATE OF namespace, session_id, timestamp ON hermes_messages BEGIN
     ${refresh("OLD.namespace", "OLD.session_id")}
     ${refresh("NEW.namespace", "NEW.session_id")}
   END`,
  // a data dir written before this table existed: its sessions get their rows once. Only while the
  // table is empty (the triggers keep a filled one whole), so a start reads no session: the gate,
  // first by CROSS JOIN, ends the statement before hermes_sessions is opened
  `INSERT OR IGNORE INTO hermes_session_activity (namespace, id, active_at, started_at)
     SELECT s.namespace, s.id, ${activityOf("s.namespace", "s.id", "s.started_at")}, s.started_at
     FROM (SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM hermes_session_activity)) AS empty_table
     CROSS JOIN hermes_sessions s
     WHERE NOT EXISTS (SELECT 1 FROM hermes_session_activity a WHERE a.namespace = s.namespace AND a.id = s.id)`
]

export const SESSION_ACTIVITY_TABLE_NAMES = ["hermes_session_activity"] as const
