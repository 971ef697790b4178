/**
 * A data dir whose database is damaged: a start after a process that did not close the file
 * (its write-ahead log still there) runs `PRAGMA quick_check`, and damage stops the start (exit 1)
 * naming the file and how to recover, leaving the file as it was; a file that was closed cleanly
 * starts without the check (its cost grows with the file) and the first request that reads a
 * damaged page answers 500 and says so on stderr. A file that is no database stops any start.
 */
import Database from "better-sqlite3"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync, closeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { program } from "../../src/cli/program.js"
import { startEmulator } from "../../src/index.js"

const KEY = "damaged-key-0123456789abcdef"
const FILE = "hermetic-emulator.db"
const root = mkdtempSync(join(tmpdir(), "hermetic-damaged-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))
afterEach(() => vi.restoreAllMocks())

/** Runs the CLI program in process (a start that is refused returns), capturing stderr. */
const serve = async (dataDir: string) => {
  let stderr = ""
  vi.spyOn(process.stdout, "write").mockImplementation(() => true)
  vi.spyOn(process.stderr, "write").mockImplementation((s) => ((stderr += String(s)), true))
  const code = await Effect.runPromise(program(["serve", "--data-dir", dataDir, "--port", "0", "--api-key", KEY]))
  vi.restoreAllMocks()
  return { code, stderr }
}

const PAGE = 4096

/** Overwrites two pages in the middle of the file with bytes no page holds. */
const damageMiddlePages = (file: string) => overwriteMiddlePage(file, Buffer.alloc(2 * PAGE, 0xa5), 0)

/**
 * The leaf pages of one table, in file order (SQLite's dbstat table says which page is whose), read
 * from a copy: a connection to the file itself would checkpoint its log on close, or leave one behind.
 */
const leavesOf = (file: string, table: string): Array<number> => {
  const copy = join(root, `leaves-${table}.db`)
  copyFileSync(file, copy)
  const db = new Database(copy)
  try {
    return (db.prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno").all(table) as Array<{ pageno: number }>).map((r) => r.pageno)
  } finally {
    db.close()
    rmSync(copy, { force: true })
  }
}

/** A table's last leaf page, as a byte offset (the file's page numbers count from 1). */
const lastLeafOffset = (file: string, table: string): number => {
  const leaves = leavesOf(file, table)
  expect(leaves.length).toBeGreaterThan(2)
  return ((leaves[leaves.length - 1] as number) - 1) * PAGE
}

/**
 * Adds a page that the header counts and no table, index or free list holds: quick_check reports it
 * ("Page N: never used") the same way every time. Damage inside a page (a cell pointer out of the
 * page) made quick_check read past the page, and it reported or failed as the bytes there fell.
 */
const addUnusedPage = (file: string) => {
  const header = readFileSync(file).subarray(28, 32)
  const pages = header.readUInt32BE(0)
  const counted = Buffer.alloc(4)
  counted.writeUInt32BE(pages + 1)
  overwrite(file, counted, 28)
  overwrite(file, Buffer.alloc(PAGE, 0), pages * PAGE)
}

/**
 * Overwrites the sessions table's last leaf page with bytes no page holds: it holds the newest
 * sessions, which the list's first page reads.
 */
const damageSessionsLeaf = (file: string) => overwrite(file, Buffer.alloc(PAGE, 0xa5), lastLeafOffset(file, "hermes_sessions"))

const overwriteMiddlePage = (file: string, bytes: Buffer, offset: number) =>
  overwrite(file, bytes, Math.floor(Math.floor(statSync(file).size / PAGE) / 2) * PAGE + offset)

const overwrite = (file: string, bytes: Buffer, at: number) => {
  const fd = openSync(file, "r+")
  writeSync(fd, bytes, 0, bytes.length, at)
  closeSync(fd)
}

/** A data dir as a killed emulator leaves it: 1,000 sessions, every page in the file, its log still there. */
let killedDir: string
beforeAll(async () => {
  const live = join(root, "live")
  const emu = await startEmulator({ apiKey: KEY, dataDir: live })
  for (let i = 0; i < 1000; i++) {
    const r = await emu.fetch("http://e/api/sessions", {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ id: `s-${i}`, system_prompt: `prompt ${i} `.padEnd(900, "x") })
    })
    expect(r.status).toBe(201)
  }
  // every page into the main file, while the emulator still holds it open: a copy of the file and
  // its log now is what a kill -9 at this moment leaves behind
  const other = new Database(join(live, FILE))
  other.pragma("wal_checkpoint(TRUNCATE)")
  other.close()
  killedDir = join(root, "killed")
  mkdirSync(killedDir)
  for (const name of [FILE, `${FILE}-wal`]) copyFileSync(join(live, name), join(killedDir, name))
  await emu.close()
}, 120_000)

describe("a damaged data dir", () => {
  it("after an unclean stop: quick_check refuses the start, names the file and how to recover, and keeps the file", async () => {
    const dir = join(root, "unclean")
    mkdirSync(dir)
    for (const name of [FILE, `${FILE}-wal`]) copyFileSync(join(killedDir, name), join(dir, name))
    damageMiddlePages(join(dir, FILE))
    const before = readFileSync(join(dir, FILE))
    const { code, stderr } = await serve(dir)
    expect(code).toBe(1)
    const file = join(dir, FILE)
    // quick_check lists what it found, or SQLite stops it at the first unreadable page
    expect(stderr.startsWith(`hermes-emulator: the data dir's database ${file} is damaged (`)).toBe(true)
    expect(stderr).toMatch(/is damaged \((quick_check: |SQLITE_CORRUPT)/)
    expect(stderr).toContain(`it was left as it is. To start anyway: stop every emulator using it, move it aside (mv ${file} ${file}.damaged, and the same for ${file}-wal and ${file}-shm where present)`)
    expect(stderr).toContain("or restore the file from a backup, or start on an empty data dir with --snapshot FILE from a saved snapshot.")
    expect(stderr.trim().split("\n")).toHaveLength(1)
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it("quick_check's findings are in the message, on one line", async () => {
    // a file with one table and a page no tree holds, left as a killed
    // process leaves it: its log there (emptied by a checkpoint while a connection holds it)
    const dir = join(root, "unclean-cells")
    mkdirSync(dir)
    const source = join(root, "cells-source.db")
    const db = new Database(source)
    db.pragma("journal_mode = WAL")
    db.exec("CREATE TABLE t (id TEXT PRIMARY KEY, v TEXT)")
    const insert = db.prepare("INSERT INTO t VALUES (?, ?)")
    db.transaction(() => {
      for (let i = 0; i < 1000; i++) insert.run(`k${i}`, "v".repeat(900))
    })()
    db.pragma("wal_checkpoint(TRUNCATE)")
    copyFileSync(source, join(dir, FILE))
    copyFileSync(`${source}-wal`, join(dir, `${FILE}-wal`))
    db.close()
    addUnusedPage(join(dir, FILE))
    const { code, stderr } = await serve(dir)
    expect(code).toBe(1)
    expect(stderr).toMatch(/is damaged \(quick_check: \*\*\* in database main \*\*\* Page \d+: never used\); it was left as it is\./)
    expect(stderr.trim().split("\n")).toHaveLength(1)
  })

  it("after an unclean stop with no damage: the check passes and the data is there", async () => {
    const dir = join(root, "unclean-intact")
    mkdirSync(dir)
    for (const name of [FILE, `${FILE}-wal`]) copyFileSync(join(killedDir, name), join(dir, name))
    const emu = await startEmulator({ apiKey: KEY, dataDir: dir })
    const r = await emu.fetch("http://e/api/sessions/s-999", { headers: { authorization: `Bearer ${KEY}` } })
    await emu.close()
    expect(r.status).toBe(200)
    // a clean close removes the log: the next start skips the check
    expect(existsSync(join(dir, `${FILE}-wal`))).toBe(false)
  })

  it("after a clean stop: the start skips the check, and the request that reads the damage answers 500 and says so", async () => {
    const dir = join(root, "clean")
    mkdirSync(dir)
    copyFileSync(join(killedDir, FILE), join(dir, FILE))
    damageSessionsLeaf(join(dir, FILE))
    const emu = await startEmulator({ apiKey: KEY, dataDir: dir })
    let stderr = ""
    vi.spyOn(process.stderr, "write").mockImplementation((s) => ((stderr += String(s)), true))
    const r = await emu.fetch("http://e/api/sessions?limit=1000", { headers: { authorization: `Bearer ${KEY}` } })
    vi.restoreAllMocks()
    await emu.close()
    expect(r.status).toBe(500)
    expect(stderr).toMatch(
      new RegExp(`^hermes-emulator: storage failed in data dir ${dir} \\(file ${FILE}\\) answering GET /api/sessions: SQLITE_CORRUPT[A-Z_]*: [^\\n]+; the request got a 500\\n$`)
    )
  })

  it("a file that is no database stops any start, with the same advice", async () => {
    const dir = join(root, "notadb")
    mkdirSync(dir)
    writeFileSync(join(dir, FILE), "this is not a database, just text long enough to fill a header ".repeat(10))
    const { code, stderr } = await serve(dir)
    expect(code).toBe(1)
    expect(stderr).toContain(`the data dir's database ${join(dir, FILE)} is damaged (SQLITE_NOTADB: file is not a database); it was left as it is.`)
  })
})
