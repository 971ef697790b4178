/**
 * The plan and the cost of one statement as the emulator runs it, for bench/soak-growth.ts
 * --explain: preloaded into the bundled CLI (`node --require bench/tools/sql-explain.ts`; Node's
 * own type stripping, so only erasable syntax here). While the file $HERMETIC_SQL_EXPLAIN.request
 * exists, the next statement whose SQL starts with its content is timed, then run again under
 * `EXPLAIN QUERY PLAN` with the same parameters on the same connection; both go to
 * $HERMETIC_SQL_EXPLAIN.json and the request file is removed.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { isMainThread } from "node:worker_threads"

type Method = (this: Statement, ...args: Array<unknown>) => unknown
interface Statement {
  readonly source: string
  readonly database: { prepare(sql: string): { all(...args: Array<unknown>): Array<unknown> } }
}

const out = process.env["HERMETIC_SQL_EXPLAIN"]

if (out !== undefined && isMainThread) {
  const request = `${out}.request`
  // the bundle requires better-sqlite3 from packages/emulator: the same module instance from there
  const requireFromEmulator = createRequire(join(process.cwd(), "packages/emulator/package.json"))
  const Database = requireFromEmulator("better-sqlite3") as new (file: string) => { prepare(sql: string): object; close(): void }
  const probe = new Database(":memory:")
  const proto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, Method>
  probe.close()
  const original = proto["all"] as Method
  proto["all"] = function (this: Statement, ...args: Array<unknown>) {
    if (!existsSync(request)) return original.apply(this, args)
    const prefix = readFileSync(request, "utf8").trim()
    if (!this.source.trimStart().startsWith(prefix)) return original.apply(this, args)
    rmSync(request, { force: true })
    const t = performance.now()
    const rows = original.apply(this, args)
    const ms = performance.now() - t
    const plan = this.database.prepare(`EXPLAIN QUERY PLAN ${this.source}`).all(...args) as Array<{ id: number; parent: number; detail: string }>
    // the plan as SQLite's shell draws it: each step under its parent
    const depth = new Map<number, number>([[0, -1]])
    const lines = plan.map((p) => {
      const d = (depth.get(p.parent) ?? -1) + 1
      depth.set(p.id, d)
      return `${"  ".repeat(d)}${p.detail}`
    })
    writeFileSync(`${out}.json`, `${JSON.stringify({ statementMs: Number(ms.toFixed(3)), rows: Array.isArray(rows) ? rows.length : 0, plan: lines }, null, 2)}\n`)
    return rows
  }
}
