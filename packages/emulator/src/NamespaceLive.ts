/**
 * The default `Namespace` service: the lifecycle (NamespaceLifecycle.ts) and snapshots
 * (snapshot/NamespaceSnapshot.ts) run on the services the emulator was built with, so a caller
 * needs nothing but the service itself.
 */
import { type Context, Effect } from "effect"
import type { NamespaceShape } from "./namespace/Namespace.js"
import { resetNamespace, restartNamespace } from "./NamespaceLifecycle.js"
import { decodeSnapshotJson, loadSnapshot, saveSnapshot } from "./snapshot/NamespaceSnapshot.js"
import type { AppServices } from "./http/Route.js"
import type { Namespace } from "./namespace/Namespace.js"

export const makeNamespace = (services: Context.Context<Exclude<AppServices, Namespace>>): NamespaceShape => ({
  restart: (namespace) => Effect.provide(restartNamespace(namespace), services),
  reset: (namespace) => Effect.provide(resetNamespace(namespace), services),
  save: (namespace) => Effect.provide(saveSnapshot(namespace), services),
  load: (namespace, snapshot) => Effect.provide(Effect.flatMap(decodeSnapshotJson(snapshot), (s) => loadSnapshot(namespace, s)), services)
})
