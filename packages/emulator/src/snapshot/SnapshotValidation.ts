/**
 * A snapshot's rows checked cell by cell against the tables as storage declares them, before
 * anything is written: a cell storage would keep but the emulator cannot read back (a
 * `started_at` of "yesterday", a `message_count` of "lots") made every later read of the table
 * answer 500. The columns come from the database's own description of each table (`PRAGMA
 * table_info`), so the one declaration of a table (its CREATE TABLE) is the only list of its
 * columns, their types and NOT NULLs.
 */

/** One column as `PRAGMA table_info` describes it. */
export interface ColumnInfo {
  readonly name: string
  /** The declared type (TEXT, INTEGER, REAL), as written in the CREATE TABLE. */
  readonly type: string
  /** 1 when NOT NULL. */
  readonly notnull: number
  /** The DEFAULT's SQL text, or null when it has none. */
  readonly dflt_value: string | null
}

/** A table as storage declares it: its columns, and the column sets each unique index (the primary key's included) keeps unique. */
export interface TableInfo {
  readonly columns: ReadonlyArray<ColumnInfo>
  readonly uniqueKeys: ReadonlyArray<ReadonlyArray<string>>
}

export type SnapshotCellValue = string | number | null

/** What is wrong with one cell (or one row), named by table, row index and column. */
export interface CellProblem {
  readonly table: string
  readonly row: number
  readonly column: string
  readonly problem: string
}

export const describeProblem = (p: CellProblem): string => `snapshot table ${p.table}, row ${p.row}, column ${p.column}: ${p.problem}`

/** Why `value` cannot go in a column of this declared type, or undefined when it can. */
const typeProblem = (type: string, value: string | number): string | undefined => {
  const declared = type.toUpperCase()
  if (declared === "TEXT") return typeof value === "string" ? undefined : `expected a string (TEXT), got ${shown(value)}`
  if (declared === "INTEGER") {
    return typeof value === "number" && Number.isSafeInteger(value) ? undefined : `expected an integer (INTEGER) within ±(2^53 − 1), got ${shown(value)}`
  }
  if (declared === "REAL") return typeof value === "number" && Number.isFinite(value) ? undefined : `expected a finite number (REAL), got ${shown(value)}`
  // a declared type the check does not know would let anything through: fail loudly instead
  return `column declared ${type}, which snapshot validation does not know`
}

/** A cell as the message shows it: short, so a huge cell does not flood the answer. */
const shown = (value: string | number): string => {
  const text = JSON.stringify(value)
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

/**
 * The first problem of a table's rows, or undefined when every row can be stored and read back:
 * known columns only (never `namespace`, which the load sets), each cell of its column's type,
 * no null or missing cell in a NOT NULL column without a default, no two rows with one unique key
 * (every row gets the same namespace, so a key of the namespace alone allows one row).
 */
export const firstProblem = (
  table: string,
  info: TableInfo,
  rows: ReadonlyArray<Readonly<Record<string, SnapshotCellValue>>>
): CellProblem | undefined => {
  const columns = info.columns.filter((c) => c.name !== "namespace")
  const byName = new Map(columns.map((c) => [c.name, c]))
  const required = columns.filter((c) => c.notnull === 1 && c.dflt_value === null)
  const keys = info.uniqueKeys.map((k) => k.filter((c) => c !== "namespace"))
  const seen = keys.map(() => new Map<string, number>())
  for (const [index, row] of rows.entries()) {
    for (const [name, value] of Object.entries(row)) {
      const column = byName.get(name)
      if (column === undefined) return { table, row: index, column: name, problem: `not a column of ${table}` }
      if (value === null) {
        if (column.notnull === 1) return { table, row: index, column: name, problem: `expected a value (NOT NULL), got null` }
        continue
      }
      const problem = typeProblem(column.type, value)
      if (problem !== undefined) return { table, row: index, column: name, problem }
    }
    const missing = required.find((c) => !(c.name in row))
    if (missing !== undefined) return { table, row: index, column: missing.name, problem: `missing (NOT NULL, no default)` }
    for (const [k, key] of keys.entries()) {
      const id = JSON.stringify(key.map((c) => row[c] ?? null))
      const earlier = seen[k]?.get(id)
      if (earlier !== undefined) {
        return { table, row: index, column: key.length === 0 ? "namespace" : key.join(", "), problem: `same unique key as row ${earlier}` }
      }
      seen[k]?.set(id, index)
    }
  }
  return undefined
}
