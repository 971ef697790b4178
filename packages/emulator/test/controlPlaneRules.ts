/**
 * The control plane's place in the route table, as rules over the table and the source text
 * (test/architecture.test.ts states them). Pure, so a test can feed each rule a made-up violation.
 */
import { isAdminPath } from "@hermetic/script"

interface TableRoute {
  readonly id: string
  readonly method: string
  readonly path: string
  readonly auth: string
}

/** Every control-plane route declares `auth: "admin"`, and only control-plane routes do. */
export const adminAuthViolations = (routes: ReadonlyArray<TableRoute>): Array<string> =>
  routes.flatMap((r) => {
    const under = isAdminPath(r.path)
    if (under && r.auth !== "admin") return [`${r.id} (${r.method} ${r.path}) is under /__admin with auth "${r.auth}"`]
    if (!under && r.auth === "admin") return [`${r.id} (${r.method} ${r.path}) has auth "admin" outside /__admin`]
    return []
  })

/** Where a control-plane path may be named: its rows of the table, and the clients and help text that call it. */
const MAY_NAME_ADMIN_PATHS = (file: string) => file === "features/admin/AdminRoutes.ts" || file.startsWith("testing/") || file.startsWith("cli/")

/** Source text without its comments (block comments, and lines that are a `//` comment). */
const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")

/**
 * Every place a request could reach a control-plane command other than through the table:
 * a test for the prefix outside App.ts (the one dispatcher), a control-plane path named outside
 * the table, or a switch on method-and-path strings (the plane's old dispatcher).
 */
export const adminDispatchOutsideTable = (sources: ReadonlyMap<string, string>): Array<string> =>
  [...sources].flatMap(([file, text]) => {
    const body = code(text)
    const found: Array<string> = []
    if (file !== "App.ts" && /\bisAdminPath\(/.test(body)) found.push(`${file}: tests for the /__admin prefix (only App.ts dispatches it, through the table)`)
    if (!MAY_NAME_ADMIN_PATHS(file) && /["'`]\/__admin\//.test(body)) found.push(`${file}: names a /__admin path outside the table (features/admin/AdminRoutes.ts)`)
    if (/\bcase\s+["'`](GET|POST|PUT|PATCH|DELETE|HEAD) \//.test(body)) found.push(`${file}: switches on a method and path`)
    return found
  })
