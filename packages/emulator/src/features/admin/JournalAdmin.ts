/**
 * The journal on the control plane (namespace by header, JSON in and out):
 *   GET    /__admin/journal?operation=&method=&path=&session=&text=&status=&since=&limit=
 *   POST   /__admin/journal {"bodies": true, "maxBodyBytes": 65536}   keep bodies and model calls
 *   DELETE /__admin/journal                                          forget the namespace's entries
 */
import { Effect, Either, Schema } from "effect"
import { type EmuRequest, type EmuResponse, jsonResponse } from "../../http/Exchange.js"
import { queryFromParams } from "../../journal/JournalQuery.js"
import { Journal } from "../../services/Journal.js"

export const JournalSettingsCommand = Schema.Struct({
  bodies: Schema.optional(Schema.Boolean),
  maxBodyBytes: Schema.optional(Schema.Int.pipe(Schema.between(0, 16 * 1024 * 1024)))
})

type ParseBody = <A, I>(schema: Schema.Schema<A, I>, req: EmuRequest) => Either.Either<A, string>
type AdminError = (status: number, message: string) => EmuResponse

export const handleJournalAdmin = (
  req: EmuRequest,
  ns: string,
  parse: <A, I>(schema: Schema.Schema<A, I>, req: EmuRequest) => Either.Either<A, string>,
  adminError: (status: number, message: string) => EmuResponse
): Effect.Effect<EmuResponse | undefined, never, Journal> => Effect.gen(() => journalRequest(req, ns, parse, adminError))

function* journalRequest(req: EmuRequest, ns: string, parse: ParseBody, adminError: AdminError) {
  const journal = yield* Journal
  switch (req.method) {
    case "GET": {
      const query = queryFromParams(req.query)
      if (Either.isLeft(query)) return adminError(400, query.left)
      return jsonResponse({ entries: yield* journal.query(ns, query.right), settings: journal.settings(ns) })
    }
    case "POST": {
      const cmd = parse(JournalSettingsCommand, req)
      if (Either.isLeft(cmd)) return adminError(400, `expected {"bodies": bool, "maxBodyBytes": n}: ${cmd.left}`)
      const { bodies, maxBodyBytes } = cmd.right
      return jsonResponse({
        settings: yield* journal.configure(ns, {
          ...(bodies === undefined ? {} : { bodies }),
          ...(maxBodyBytes === undefined ? {} : { maxBodyBytes })
        })
      })
    }
    case "DELETE":
      yield* journal.clear(ns)
      return jsonResponse({ cleared: true })
    default:
      return undefined
  }
}
