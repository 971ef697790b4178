/** The guide's code is the tested example files, character for character, and shows every one of them. */
import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const ROOT = new URL("../../../../", import.meta.url).pathname
const guide = readFileSync(`${ROOT}docs/testing-your-app.md`, "utf8")

describe("docs/testing-your-app.md", () => {
  const blocks = [...guide.matchAll(/<!-- example: (\S+) -->\n```\w+\n([\s\S]*?)```\n/g)].map((m) => ({ file: m[1] as string, code: m[2] as string }))

  it("shows every example file of docs/examples", () => {
    const files = readdirSync(`${ROOT}docs/examples`).filter((f) => f.endsWith(".ts") || f.endsWith(".py")).map((f) => `docs/examples/${f}`)
    expect(blocks.map((b) => b.file).sort()).toEqual(files.sort())
  })

  it.each(blocks.map((b) => [b.file, b] as const))("shows %s as it is", (file, block) => {
    expect(block.code).toBe(readFileSync(`${ROOT}${file}`, "utf8"))
  })
})
