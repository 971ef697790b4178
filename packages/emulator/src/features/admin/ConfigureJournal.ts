/** POST /__admin/journal {"bodies": true, "maxBodyBytes": 65536}: whether the namespace's journal keeps bodies and model calls. */
import { Effect, Either, Schema } from "effect"
import { adminError } from "../../http/AdminGate.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminHandler } from "../../http/Route.js"
import { Journal } from "../../services/Journal.js"
import { parseAdminBody } from "./AdminBody.js"

export const JournalSettingsCommand = Schema.Struct({
  bodies: Schema.optional(Schema.Boolean),
  maxBodyBytes: Schema.optional(Schema.Int.pipe(Schema.between(0, 16 * 1024 * 1024)))
})

export const configureJournal: AdminHandler = (ctx) => {
  const cmd = parseAdminBody(JournalSettingsCommand, ctx.req.body)
  if (Either.isLeft(cmd)) return Effect.succeed(adminError(400, `expected {"bodies": bool, "maxBodyBytes": n}: ${cmd.left}`))
  const { bodies, maxBodyBytes } = cmd.right
  return Effect.flatMap(Journal, (journal) =>
    Effect.map(
      journal.configure(ctx.namespace, {
        ...(bodies === undefined ? {} : { bodies }),
        ...(maxBodyBytes === undefined ? {} : { maxBodyBytes })
      }),
      (settings) => jsonResponse({ settings })
    ))
}
