/**
 * `list_sessions_rich(order_by_last_active=True)` as the API server calls it: roots and branch
 * children (a child counts as a branch when its parent ended "branched" no later than the child
 * started), newest activity first, where a compression chain's activity is its latest message
 * anywhere along the chain; then compression roots are projected forward to their tip.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { compressionTip } from "./SessionLineage.js"
import { type RichSessionRow, SESSION_COLUMNS } from "./SessionRow.js"
import { pyStrip } from "../../python/index.js"

export interface ListQuery {
  readonly source: string | undefined
  readonly limit: number
  readonly offset: number
  readonly includeChildren: boolean
  /** 0.19.0 has no archive flag; 0.21.0 hides archived sessions from the default list. */
  readonly excludeArchived: boolean
}

const COLUMNS = SESSION_COLUMNS.split(", ").map((c) => `s.${c}`).join(", ")

const PREVIEW_RAW = `COALESCE((SELECT SUBSTR(REPLACE(REPLACE(m.content, X'0A', ' '), X'0D', ' '), 1, 63)
    FROM hermes_messages m WHERE m.namespace = s.namespace AND m.session_id = s.id AND m.role = 'user' AND m.content IS NOT NULL
    ORDER BY m.timestamp, m.id LIMIT 1), '')`

const LAST_ACTIVE = `COALESCE((SELECT MAX(m2.timestamp) FROM hermes_messages m2
    WHERE m2.namespace = s.namespace AND m2.session_id = s.id), s.started_at)`

type RawRow = Omit<RichSessionRow, "preview" | "lineage_root_id"> & { readonly preview_raw: string }

/** Python's `raw.strip()`, then the first 60 code points with "..." when more remained. */
export const previewOf = (raw: string): string => {
  const text = pyStrip(raw)
  if (text === "") return ""
  const points = [...text]
  return points.slice(0, 60).join("") + (points.length > 60 ? "..." : "")
}

const toRich = (row: RawRow): RichSessionRow => {
  const { preview_raw, ...rest } = row
  return { ...rest, preview: previewOf(preview_raw) }
}

/** One session with preview and last_active (`_get_session_rich_row`). */
export const richSessionRow = (ns: string, id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.unsafe<RawRow>(
      `SELECT ${COLUMNS}, ${PREVIEW_RAW} AS preview_raw, ${LAST_ACTIVE} AS last_active
       FROM hermes_sessions s WHERE s.namespace = ? AND s.id = ?`,
      [ns, id]
    )
  ).pipe(
    Effect.map((rows) => (rows[0] === undefined ? undefined : toRich(rows[0]))),
    Effect.orDie
  )

/** Fields a projected compression root takes from its tip. */
const TIP_FIELDS = [
  "id",
  "ended_at",
  "end_reason",
  "message_count",
  "tool_call_count",
  "title",
  "last_active",
  "preview",
  "model",
  "system_prompt"
] as const

export const listSessions = (ns: string, q: ListQuery) => Effect.gen(() => selectSessionPage(ns, q)).pipe(Effect.orDie)

function* selectSessionPage(ns: string, q: ListQuery) {
  const sql = yield* SqlClient.SqlClient
  const where: Array<string> = ["s.namespace = ?"]
  const params: Array<string | number> = [ns]
  if (!q.includeChildren) {
    where.push(`(s.parent_session_id IS NULL
      OR json_extract(COALESCE(s.model_config, '{}'), '$._branched_from') IS NOT NULL
      OR EXISTS (SELECT 1 FROM hermes_sessions p WHERE p.namespace = s.namespace AND p.id = s.parent_session_id
                 AND p.end_reason = 'branched' AND s.started_at >= p.ended_at))`)
    where.push(`json_extract(COALESCE(s.model_config, '{}'), '$._delegate_from') IS NULL`)
  }
  if (q.source !== undefined) {
    where.push("s.source = ?")
    params.push(q.source)
  }
  if (q.excludeArchived) where.push("s.archived = 0")
  const whereSql = `WHERE ${where.join(" AND ")}`
  // A listed session's activity is its own (kept in hermes_session_activity, see SessionActivity),
  // except a compression root's, which is its chain's latest. So the page is the merge of the
  // first limit+offset other sessions, read backwards off the activity index, and the compression
  // roots with their chains walked: neither reads the whole store (roots are as many as clients
  // ended sessions with "compression"). The CROSS JOINs fix the join order: the index outside.
  const rows = yield* sql.unsafe<RawRow>(
    `WITH RECURSIVE roots AS MATERIALIZED (
       SELECT s.id, s.started_at FROM hermes_sessions s ${whereSql} AND s.end_reason = 'compression'
     ),
     chain(root_id, cur_id) AS (
       SELECT id, id FROM roots
       UNION
       SELECT chain.root_id, c.id FROM chain
         CROSS JOIN hermes_sessions p ON p.namespace = ? AND p.id = chain.cur_id
         CROSS JOIN hermes_sessions c ON c.namespace = ? AND c.parent_session_id = chain.cur_id
       WHERE p.end_reason = 'compression'
         AND json_extract(COALESCE(c.model_config, '{}'), '$._branched_from') IS NULL
         AND json_extract(COALESCE(c.model_config, '{}'), '$._delegate_from') IS NULL
         AND COALESCE(c.source, '') != 'tool'
     ),
     chain_max AS MATERIALIZED (
       SELECT chain.root_id, MAX(a.active_at) AS effective FROM chain
         CROSS JOIN hermes_session_activity a ON a.namespace = ? AND a.id = chain.cur_id
       GROUP BY chain.root_id
     ),
     plain AS MATERIALIZED (
       SELECT a.id, a.started_at, a.active_at AS effective FROM hermes_session_activity a
         CROSS JOIN hermes_sessions s ON s.namespace = a.namespace AND s.id = a.id
       ${whereSql} AND a.namespace = ? AND s.end_reason IS NOT 'compression'
       ORDER BY a.active_at DESC, a.started_at DESC, a.id DESC
       LIMIT ?
     ),
     page AS MATERIALIZED (
       SELECT id, started_at, effective FROM plain
       UNION ALL
       SELECT r.id, r.started_at, cm.effective FROM roots r CROSS JOIN chain_max cm ON cm.root_id = r.id
       ORDER BY 3 DESC, 2 DESC, 1 DESC
       LIMIT ? OFFSET ?
     )
     SELECT ${COLUMNS}, ${PREVIEW_RAW} AS preview_raw, ${LAST_ACTIVE} AS last_active
     FROM page CROSS JOIN hermes_sessions s ON s.namespace = ? AND s.id = page.id
     ORDER BY page.effective DESC, page.started_at DESC, page.id DESC`,
    [...params, ns, ns, ns, ...params, ns, q.limit + q.offset, q.limit, q.offset, ns]
  )
  const sessions = rows.map(toRich)
  if (q.includeChildren) return sessions
  const projected: Array<RichSessionRow> = []
  for (const s of sessions) {
    if (s.end_reason !== "compression") {
      projected.push(s)
      continue
    }
    const tipId = yield* compressionTip(ns, s.id)
    const tip = tipId === s.id ? undefined : yield* richSessionRow(ns, tipId)
    if (tip === undefined) {
      projected.push(s)
      continue
    }
    const merged: Record<string, unknown> = { ...s }
    for (const key of TIP_FIELDS) merged[key] = tip[key]
    projected.push({ ...(merged as unknown as RichSessionRow), lineage_root_id: s.id })
  }
  return projected
}
