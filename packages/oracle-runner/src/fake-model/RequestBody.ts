/** Reading a request body as JSON on the fake model: bounded, and a parse failure is a value, not a throw. */
import * as IncomingMessage from "@effect/platform/HttpIncomingMessage"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Effect, Option } from "effect"

/** Hermes sends whole conversations (images inline as data: URLs): allow 20 MB, twice the platform default. */
const MAX_BODY_BYTES = 20_000_000

export type JsonBody = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string }

export const readJsonBody = (req: HttpServerRequest.HttpServerRequest, emptyIs?: unknown): Effect.Effect<JsonBody> =>
  req.text.pipe(
    IncomingMessage.withMaxBodySize(Option.some(MAX_BODY_BYTES)),
    Effect.map((text): JsonBody => {
      if (text === "" && emptyIs !== undefined) return { ok: true, value: emptyIs }
      try {
        return { ok: true, value: JSON.parse(text) as unknown }
      } catch {
        return { ok: false, reason: "body is not JSON" }
      }
    }),
    Effect.catchAll((e) => Effect.succeed<JsonBody>({ ok: false, reason: `body could not be read: ${e.reason}` }))
  )
