/**
 * How upstream follows session lineage: compression continuations (children of a session that
 * ended with end_reason "compression"), the resume target a transcript read is redirected to, and
 * the "title #N" numbering of forks. The emulated agent never compresses, but a client may set
 * end_reason "compression" through PATCH, and upstream's reads then behave accordingly.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { pyDecimalDigitsValue } from "../../python/index.js"

/** Children that are neither explicit branches, delegates nor tool sessions (markers in model_config). */
const PLAIN_CHILD = `json_extract(COALESCE(c.model_config, '{}'), '$._branched_from') IS NULL
  AND json_extract(COALESCE(c.model_config, '{}'), '$._delegate_from') IS NULL
  AND COALESCE(c.source, '') != 'tool'`

/** `get_compression_tip`: the live end of a compression chain, or the id itself. */
export const compressionTip = (ns: string, sessionId: string) =>
  Effect.gen(() => walkCompressionChain(ns, sessionId)).pipe(Effect.orDie)

function* walkCompressionChain(ns: string, sessionId: string) {
  const sql = yield* SqlClient.SqlClient
  let current = sessionId
  const seen = new Set<string>([current])
  for (let hop = 0; hop < 100; hop++) {
    const rows = yield* sql.unsafe<{ readonly id: string }>(
      `SELECT c.id FROM hermes_sessions p JOIN hermes_sessions c
         ON c.namespace = p.namespace AND c.parent_session_id = p.id
       WHERE p.namespace = ? AND p.id = ? AND p.end_reason = 'compression' AND ${PLAIN_CHILD}
       ORDER BY CASE WHEN c.end_reason = 'compression' THEN 0 WHEN c.ended_at IS NULL THEN 1 ELSE 2 END,
         COALESCE((SELECT MAX(m.timestamp) FROM hermes_messages m WHERE m.namespace = c.namespace AND m.session_id = c.id),
                  c.started_at) DESC,
         c.started_at DESC, c.id DESC
       LIMIT 1`,
      [ns, current]
    )
    const child = rows[0]?.id
    if (child === undefined || child === "" || seen.has(child)) return current
    seen.add(child)
    current = child
  }
  return current
}

/**
 * `resolve_resume_session_id`: from the compression tip, walk down to the most recently started
 * plain child, 32 hops at most, and answer the deepest session that holds messages. A fork made
 * through the API carries no branch marker, so reading a forked session's transcript lands on its
 * newest fork that has messages, as upstream's does.
 */
export const resolveResumeSessionId = (ns: string, sessionId: string) =>
  Effect.gen(() => walkToResumeTarget(ns, sessionId)).pipe(Effect.orDie)

function* walkToResumeTarget(ns: string, sessionId: string) {
  if (sessionId === "") return sessionId
  const sql = yield* SqlClient.SqlClient
  const start = yield* compressionTip(ns, sessionId)
  let current = start
  const seen = new Set<string>([current])
  let best: string | undefined
  for (let hop = 0; hop < 32; hop++) {
    const has = yield* sql<{ readonly one: number }>`SELECT 1 AS one FROM hermes_messages
      WHERE namespace = ${ns} AND session_id = ${current} LIMIT 1`
    if (has.length > 0) best = current
    const rows = yield* sql.unsafe<{ readonly id: string }>(
      `SELECT c.id FROM hermes_sessions c WHERE c.namespace = ? AND c.parent_session_id = ? AND ${PLAIN_CHILD}
       ORDER BY c.started_at DESC, c.id DESC LIMIT 1`,
      [ns, current]
    )
    const child = rows[0]?.id
    if (child === undefined || child === "" || seen.has(child)) break
    seen.add(child)
    current = child
  }
  return best ?? start
}

const escapeLike = (s: string): string => s.replace(/\\/g, "\\\\").replace(/%/g, "\\%").replace(/_/g, "\\_")

/**
 * `get_next_title_in_lineage`: "base" when no session uses it, else "base #N+1" over the highest
 * number in use. SQLite's LIKE is ASCII case-insensitive, so "Fork #3" counts for base "fork". The
 * number is Python's `\d+` read by int(): any Unicode decimal digits, of any size.
 */
export const nextTitleInLineage = (ns: string, baseTitle: string) =>
  Effect.gen(() => nextFreeLineageTitle(ns, baseTitle)).pipe(Effect.orDie)

function* nextFreeLineageTitle(ns: string, baseTitle: string) {
  const sql = yield* SqlClient.SqlClient
  const numbered = /^([\s\S]*?) #(\p{Nd}+)$/u.exec(baseTitle)
  const base = numbered === null ? baseTitle : (numbered[1] as string)
  // two arms rather than one OR: each is a range of a title index, where the OR scanned the namespace
  const rows = yield* sql.unsafe<{ readonly title: string }>(
    `SELECT title FROM hermes_sessions WHERE namespace = ? AND title = ?
     UNION ALL
     SELECT title FROM hermes_sessions WHERE namespace = ? AND title LIKE ? ESCAPE '\\'`,
    [ns, base, ns, `${escapeLike(base)} #%`]
  )
  if (rows.length === 0) return base
  let max = 1n
  for (const row of rows) {
    const m = /^[\s\S]* #(\p{Nd}+)$/u.exec(row.title)
    if (m !== null) {
      const n = pyDecimalDigitsValue(m[1] as string)
      if (n > max) max = n
    }
  }
  return `${base} #${max + 1n}`
}
