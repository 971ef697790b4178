/**
 * aiohttp's URL dispatcher, as far as clients can see it: `{name}` matches one path segment,
 * no trailing-slash redirects, 404 when no path matches, 405 (with Allow) when the path matches
 * under another method. Every route is also mounted under `/p/{profile}` as Hermes does.
 */
export interface RouteDef<H> {
  /** A stable operation id used by faults, the journal and coverage ("runs.create"). */
  readonly id: string
  readonly method: string
  readonly path: string
  /**
   * "bearer": the app answers 401 before the handler unless the request carries the API key.
   * "admin": a control-plane command; the plane's guard (@hermetic/script's ControlPlaneGuard) runs first.
   */
  readonly auth: "bearer" | "public" | "admin"
  readonly handler: H
}

export type RouteMatch<H> =
  | { readonly _tag: "found"; readonly route: RouteDef<H>; readonly params: Readonly<Record<string, string>> }
  | { readonly _tag: "notFound" }
  | { readonly _tag: "methodNotAllowed"; readonly allow: ReadonlyArray<string> }

/** A pattern segment, parsed once: a literal to compare, or the name of a `{param}`. */
type Segment = { readonly literal: string; readonly param?: undefined } | { readonly literal?: undefined; readonly param: string }

interface Compiled<H> {
  readonly route: RouteDef<H>
  readonly segments: ReadonlyArray<Segment>
}

const PARAM = /^\{(\w+)\}$/

const splitPath = (path: string): Array<string> => path.split("/").slice(1)

/** aiohttp matches against the percent-decoded path. */
const decodeSegment = (segment: string): string => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** How a table's paths are matched: upstream's routes are also mounted under /p/{profile} and match decoded segments. */
export interface RouterOptions {
  readonly profileMount: boolean
  readonly decodeSegments: boolean
}

const UPSTREAM: RouterOptions = { profileMount: true, decodeSegments: true }

export class Router<H> {
  /** Candidates by segment count: a request is only matched against patterns of its own length. */
  private readonly byLength = new Map<number, Array<Compiled<H>>>()
  private readonly decodeSegments: boolean

  constructor(routes: ReadonlyArray<RouteDef<H>>, options: RouterOptions = UPSTREAM) {
    this.decodeSegments = options.decodeSegments
    const parse = (raw: ReadonlyArray<string>): Array<Segment> =>
      raw.map((p) => {
        const param = PARAM.exec(p)
        return param === null ? { literal: p } : { param: param[1] as string }
      })
    const compiled = routes.flatMap((route): Array<Compiled<H>> => [
      { route, segments: parse(splitPath(route.path)) },
      ...(options.profileMount ? [{ route, segments: parse(["p", "{profile}", ...splitPath(route.path)]) }] : [])
    ])
    for (const c of compiled) {
      const list = this.byLength.get(c.segments.length) ?? []
      list.push(c)
      this.byLength.set(c.segments.length, list)
    }
  }

  match(method: string, rawPath: string): RouteMatch<H> {
    const raw = splitPath(rawPath)
    const segments = this.decodeSegments ? raw.map((s) => (s.includes("%") ? decodeSegment(s) : s)) : raw
    let allow: Set<string> | undefined
    for (const c of this.byLength.get(segments.length) ?? []) {
      const params = matchSegments(c.segments, segments)
      if (params === undefined) continue
      if (c.route.method === method) return { _tag: "found", route: c.route, params }
      ;(allow ??= new Set()).add(c.route.method)
    }
    return allow !== undefined ? { _tag: "methodNotAllowed", allow: [...allow].sort() } : { _tag: "notFound" }
  }
}

const matchSegments = (
  pattern: ReadonlyArray<Segment>,
  actual: ReadonlyArray<string>
): Record<string, string> | undefined => {
  if (pattern.length !== actual.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as Segment
    const a = actual[i] as string
    if (p.param !== undefined) {
      if (a === "") return undefined
      params[p.param] = a
    } else if (p.literal !== a) {
      return undefined
    }
  }
  return params
}
