/**
 * POST /__admin/snapshot (namespace by header, JSON in and out), through the `Namespace` service:
 *   {"action": "save"}                       → {"snapshot": {...}}
 *   {"action": "load", "snapshot": {...}}    → {"loaded": {table: rows}}
 * The file stays on the caller's side: the control plane never reads or writes paths it is sent.
 */
import { Effect, Either, Schema } from "effect"
import { adminError } from "../../http/AdminGate.js"
import { jsonResponse } from "../../http/Exchange.js"
import type { AdminContext, AdminHandler } from "../../http/Route.js"
import { Namespace } from "../../namespace/Namespace.js"
import { parseAdminBody } from "./AdminBody.js"

const SnapshotCommand = Schema.Union(
  Schema.Struct({ action: Schema.Literal("save") }),
  Schema.Struct({ action: Schema.Literal("load"), snapshot: Schema.Unknown })
)

export const snapshotCommand: AdminHandler = (ctx) => Effect.gen(() => snapshotRequest(ctx))

function* snapshotRequest(ctx: AdminContext) {
  const cmd = parseAdminBody(SnapshotCommand, ctx.req.body)
  if (Either.isLeft(cmd)) return adminError(400, `expected {"action": "save"} or {"action": "load", "snapshot": {...}}: ${cmd.left}`)
  const namespace = yield* Namespace
  if (cmd.right.action === "save") return jsonResponse({ snapshot: yield* namespace.save(ctx.namespace) })
  const loaded = yield* Effect.either(namespace.load(ctx.namespace, cmd.right.snapshot))
  return Either.isLeft(loaded) ? adminError(400, loaded.left.message) : jsonResponse({ loaded: loaded.right })
}
