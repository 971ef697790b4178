/**
 * Every fenced block of every README is either run by the consumer test (`consumer` in its info
 * string), excluded with a reason (`not-consumer: WHY`), or data (json, text): a command nobody
 * runs cannot slip in. The runs themselves are the slow tier's (test/consumer/consumer.test.ts);
 * this check is cheap, so the default suite has it too.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { fencedBlocks, namedPackages, rewriteInstall, shellCommands, statedInstallCount } from "../consumer/readmeBlocks.js"

const repo = fileURLToPath(new URL("../..", import.meta.url))
const packageReadmes = readdirSync(join(repo, "packages")).map((d) => join("packages", d, "README.md")).filter((f) => existsSync(join(repo, f)))
const readmes = ["README.md", ...packageReadmes]

describe("README blocks", () => {
  it("reads info strings: run, run with vitest or as a server, excluded with a reason, data, unmarked", () => {
    const md = [
      "```sh consumer serve=8642 expect=\"Hello there\"", "npm i -D @hermetic/emulator \\", "  effect@^3.22.4", "# a comment", "npx x", "```",
      "```ts consumer=vitest", "it()", "```",
      "```ts consumer", "x", "```",
      "```sh not-consumer: needs the real gateway", "npx oracle-runner up", "```",
      "```sh not-consumer:", "y", "```",
      "```json", "{}", "```",
      "```sh", "z", "```"
    ].join("\n")
    const blocks = fencedBlocks(md)
    expect(blocks.map((b) => b.mark)).toEqual([
      { kind: "run", runner: "shell", serve: 8642, expect: "Hello there" },
      { kind: "run", runner: "vitest" },
      { kind: "run", runner: "node" },
      { kind: "excluded", reason: "needs the real gateway" },
      { kind: "unmarked" },
      { kind: "data" },
      { kind: "unmarked" }
    ])
    expect(blocks.map((b) => b.line)).toEqual([1, 7, 10, 13, 16, 19, 22])
    expect(shellCommands(blocks[0]?.body ?? "")).toEqual(["npm i -D @hermetic/emulator    effect@^3.22.4", "npx x"])
  })

  it("rewrites only the packed packages' names in install commands, and refuses a pin to another version", () => {
    const packed = [{ name: "@hermetic/emulator", version: "0.1.0", tarball: "/p/e.tgz" }, { name: "@hermetic/script", version: "0.1.0", tarball: "/p/s.tgz" }]
    expect(rewriteInstall("npm i -D @hermetic/emulator effect@^3.22.4 @effect/sql@^0.52.1", packed)).toBe("npm i -D /p/e.tgz effect@^3.22.4 @effect/sql@^0.52.1")
    expect(rewriteInstall("npm i @hermetic/script@0.1.0", packed)).toBe("npm i /p/s.tgz")
    expect(rewriteInstall("npx hermes-emulator serve @hermetic/emulator", packed)).toBe("npx hermes-emulator serve @hermetic/emulator")
    expect(() => rewriteInstall("npm i @hermetic/script@0.2.0", packed)).toThrow(/pins @hermetic\/script to 0.2.0/)
    expect([...namedPackages(["npm i -D @hermetic/emulator effect", "npx hermes-emulator"], packed)]).toEqual(["@hermetic/emulator"])
  })

  it.each(readmes)("%s: every code block is run by the consumer test or excluded with a reason", (file) => {
    const unmarked = fencedBlocks(readFileSync(join(repo, file), "utf8")).filter((b) => b.mark.kind === "unmarked").map((b) => `line ${b.line}: \`\`\`${b.lang}`)
    expect(unmarked, `${file}: mark each block \`consumer\` or \`not-consumer: WHY\``).toEqual([])
  })

  it.each(packageReadmes)("%s: its install command is run, and it states how many packages that install pulls", (file) => {
    const markdown = readFileSync(join(repo, file), "utf8")
    const installs = fencedBlocks(markdown).filter((b) => b.mark.kind === "run" && b.mark.runner === "shell").flatMap((b) => shellCommands(b.body)).filter((c) => /^npm\s+(i|install)\b/.test(c))
    expect(installs.length, file).toBeGreaterThan(0)
    expect(statedInstallCount(markdown), file).toBeTypeOf("number")
  })
})
