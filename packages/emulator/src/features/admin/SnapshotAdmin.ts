/**
 * Snapshots on the control plane (namespace by header, JSON in and out):
 *   POST /__admin/snapshot {"action": "save"}                       → {"snapshot": {...}}
 *   POST /__admin/snapshot {"action": "load", "snapshot": {...}}    → {"loaded": {table: rows}}
 * The file stays on the caller's side: the control plane never reads or writes paths it is sent.
 */
import { Effect, Either, Schema } from "effect"
import { type EmuRequest, type EmuResponse, jsonResponse } from "../../http/Exchange.js"
import type { AppServices } from "../../http/Route.js"
import { decodeSnapshotJson, loadSnapshot, saveSnapshot } from "../../snapshot/NamespaceSnapshot.js"

const SnapshotCommand = Schema.Union(
  Schema.Struct({ action: Schema.Literal("save") }),
  Schema.Struct({ action: Schema.Literal("load"), snapshot: Schema.Unknown })
)

type ParseBody = <A, I>(schema: Schema.Schema<A, I>, req: EmuRequest) => Either.Either<A, string>
type AdminError = (status: number, message: string) => EmuResponse

export const handleSnapshotAdmin = (
  req: EmuRequest,
  ns: string,
  parse: <A, I>(schema: Schema.Schema<A, I>, req: EmuRequest) => Either.Either<A, string>,
  adminError: (status: number, message: string) => EmuResponse
): Effect.Effect<EmuResponse, never, AppServices> => Effect.gen(() => snapshotRequest(req, ns, parse, adminError))

function* snapshotRequest(req: EmuRequest, ns: string, parse: ParseBody, adminError: AdminError) {
  const cmd = parse(SnapshotCommand, req)
  if (Either.isLeft(cmd)) return adminError(400, `expected {"action": "save"} or {"action": "load", "snapshot": {...}}: ${cmd.left}`)
  if (cmd.right.action === "save") return jsonResponse({ snapshot: yield* saveSnapshot(ns) })
  const loaded = yield* decodeSnapshotJson(cmd.right.snapshot).pipe(Effect.flatMap((snapshot) => loadSnapshot(ns, snapshot)), Effect.either)
  return Either.isLeft(loaded) ? adminError(400, loaded.left.message) : jsonResponse({ loaded: loaded.right })
}
