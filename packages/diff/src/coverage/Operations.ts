/**
 * The upstream API server's operations, derived from the emulator's route table (which follows
 * the pinned release's `_http_route_table`, route for route) plus the few upstream routes the
 * emulator does not implement, so coverage keeps that gap visible. Exchanges are classified by
 * matching method and path against these templates (a `/p/{profile}` prefix is ignored).
 */
import { features, isPinName, PINS, routesFor } from "./emulatorRoutes.js"

export interface Operation {
  readonly id: string
  readonly method: string
  readonly path: string
  /** Whether the emulator's route table has it on the pin asked for. */
  readonly implemented: boolean
}

/** Upstream routes the emulator has no handler for (each says why it is left out): none at the moment. */
const NOT_EMULATED: ReadonlyArray<Omit<Operation, "implemented"> & { readonly why: string }> = [
]

/** The operations of one pin: the emulator's routes for it, then the upstream routes it lacks. */
export const operationsFor = (pin: string): ReadonlyArray<Operation> => {
  const routes = isPinName(pin) ? routesFor(features(pin)) : []
  return [
    ...routes.map((r) => ({ id: r.id, method: r.method, path: r.path, implemented: true })),
    ...NOT_EMULATED.filter((op) => !routes.some((r) => r.method === op.method && r.path === op.path)).map(({ id, method, path }) => ({ id, method, path, implemented: false }))
  ]
}

const templateRegex = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`)

/** Every pin's operations, so a difference is named the same whatever the pin. */
const COMPILED = (() => {
  const byKey = new Map<string, Operation>()
  for (const pin of PINS) for (const op of operationsFor(pin)) byKey.set(`${op.method} ${op.path}`, op)
  return [...byKey.values()].map((op) => ({ op, regex: templateRegex(op.path) }))
})()

/** The operation a request addresses: its id, or `other METHOD` for paths upstream does not route. */
export const operationOf = (method: string, path: string): string => {
  const bare = path.split("?")[0]?.replace(/^\/p\/[^/]+(?=\/)/, "") ?? path
  const m = method.toUpperCase()
  const hit = COMPILED.find((c) => c.op.method === m && c.regex.test(bare))
  if (hit !== undefined) return hit.op.id
  const pathOnly = COMPILED.find((c) => c.regex.test(bare))
  return pathOnly !== undefined ? `${pathOnly.op.id} (wrong method ${m})` : `unrouted ${m}`
}
