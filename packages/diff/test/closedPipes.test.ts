/**
 * `oracle … | head -3`: once the reader is gone, writes fail with EPIPE. With tolerateClosedPipes
 * (cli/closedPipes.ts) the process goes on to its own cleanup and exit code; without it the first
 * such write ended the process with 1 and no cleanup, which this test shows too.
 */
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const dir = mkdtempSync(join(tmpdir(), "hermetic-pipes-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const MODULE = new URL("../src/cli/closedPipes.ts", import.meta.url).pathname

/** A program that writes past a reader that left after one line, then "cleans up" (a marker file) and exits 7. */
const program = (tolerate: boolean, marker: string) => `
import { writeFileSync } from "node:fs"
import { tolerateClosedPipes } from ${JSON.stringify(MODULE)}
${tolerate ? "tolerateClosedPipes()" : ""}
process.stdout.write("first\\n")
setTimeout(() => {
  for (let i = 0; i < 2000; i++) process.stdout.write("more output than anyone reads\\n")
  setTimeout(() => { writeFileSync(${JSON.stringify(marker)}, "cleaned"); process.exit(7) }, 300)
}, 500)
`

const readOneLineAndLeave = (tolerate: boolean): Promise<{ code: number | null; cleaned: boolean }> => {
  const marker = join(dir, `cleaned-${String(tolerate)}`)
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", program(tolerate, marker)], { stdio: ["ignore", "pipe", "ignore"] })
    child.stdout.once("data", () => child.stdout.destroy())
    child.on("exit", (code) => resolve({ code, cleaned: existsSync(marker) }))
  })
}

describe("a closed stdout", () => {
  it("is dropped: the program reaches its cleanup and exits with its own code", async () => {
    expect(await readOneLineAndLeave(true)).toEqual({ code: 7, cleaned: true })
  }, 30_000)

  it("ends an unguarded program at once with 1, before its cleanup (what the guard prevents)", async () => {
    expect(await readOneLineAndLeave(false)).toEqual({ code: 1, cleaned: false })
  }, 30_000)
})
