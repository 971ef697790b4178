/**
 * GET /__admin/journal?operation=&method=&path=&session=&text=&status=&since=&limit=: the
 * namespace's journal entries that match, and its settings.
 */
import { Effect, Either } from "effect"
import { adminError } from "../../http/AdminGate.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminHandler } from "../../http/Route.js"
import { queryFromParams } from "../../journal/JournalQuery.js"
import { Journal } from "../../services/Journal.js"

export const queryJournal: AdminHandler = (ctx) => {
  const query = queryFromParams(ctx.req.query)
  if (Either.isLeft(query)) return Effect.succeed(adminError(400, query.left))
  return Effect.flatMap(Journal, (journal) =>
    Effect.map(journal.query(ctx.namespace, query.right), (entries) => jsonResponse({ entries, settings: journal.settings(ctx.namespace) })))
}
