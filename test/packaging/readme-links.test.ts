/**
 * A package README is read where the tarball puts it (the registry's page, node_modules/): every
 * relative link in it must name a file the tarball ships, and anything else is a full URL. The
 * file lists are npm's own (`npm pack --dry-run --json`, lifecycle scripts included, so the diff's
 * fixtures copied in at pack time count).
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, normalize } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const repo = fileURLToPath(new URL("../..", import.meta.url))

interface Packed {
  readonly name: string
  readonly files: ReadonlyArray<{ readonly path: string }>
}

/** The targets of Markdown links `[text](target)` and `<a href>`s, anchors and titles dropped. */
const linkTargets = (markdown: string): Array<string> =>
  [...markdown.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|href="([^"]+)"/g)]
    .map((m) => (m[1] ?? m[2] ?? "").split("#")[0] ?? "")
    .filter((t) => t !== "")

const isRelative = (target: string) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("//")

let packed: Array<Packed> = []
// npm runs the packages' prepack/postpack scripts, which copy into and then delete from the package
// folders (the diff's fixtures/, which fixturesDir() prefers when present): packed from a copy made
// of hard links, so test files running beside this one never see a half-made fixtures/ in the checkout
const stage = mkdtempSync(join(tmpdir(), "hermetic-pack-"))
afterAll(() => rmSync(stage, { recursive: true, force: true }))
beforeAll(async () => {
  const run = promisify(execFile)
  await run("cp", ["-al", "package.json", "source-lock.json", "fixtures", "packages", stage], { cwd: repo })
  const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--workspaces"], { cwd: stage, maxBuffer: 64 * 1024 * 1024 })
  packed = JSON.parse(stdout) as Array<Packed>
}, 120_000)

describe("package READMEs are self-contained", () => {
  it("finds the links it checks (a relative one resolves, an escaping one does not)", () => {
    expect(linkTargets("see [a](examples/x.ts) and [b](../../docs/y.md#z), [c](https://e.x/p)")).toEqual(["examples/x.ts", "../../docs/y.md", "https://e.x/p"])
    expect(normalize("../../docs/y.md").startsWith("..")).toBe(true)
  })

  it("every relative link in each packed README names a file in that tarball", () => {
    expect(packed.length).toBeGreaterThan(0)
    for (const pkg of packed) {
      const shipped = new Set(pkg.files.map((f) => f.path))
      expect(shipped.has("README.md"), `${pkg.name} ships no README.md`).toBe(true)
      const dir = join(repo, "packages", pkg.name.replace(/^@hermetic\//, ""))
      const readme = readFileSync(join(dir, "README.md"), "utf8")
      const broken = linkTargets(readme).filter(isRelative).filter((target) => {
        const path = normalize(decodeURIComponent(target)).replace(/\/$/, "")
        return path.startsWith("..") || !(shipped.has(path) || [...shipped].some((f) => f.startsWith(`${path}/`)))
      })
      expect(broken, `${pkg.name}: README links to what its tarball lacks`).toEqual([])
    }
  })
})
