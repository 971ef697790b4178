/**
 * The differ (packages/diff) through its CLI, `npm run oracle -- …`, so this bench follows the
 * differ's own code as it evolves: `oracle bench` (generated scenarios per second played on the
 * emulator in process, and compared emulator against emulator), and `oracle compare --target
 * cassette` (every committed cassette of the pin replayed against the emulator), timed whole
 * and next to the CLI's bare start (`oracle --help`). Evidence goes to a temp dir, never evidence/.
 */
import { execa } from "execa"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { repoRoot } from "./child.js"
import { spread, type Spread } from "./stats.js"

export interface DifferResult {
  readonly measured: boolean
  /** Why not, when not measured. */
  readonly todo?: string
  readonly pin: string
  readonly generated?: {
    readonly scenarios: number
    readonly seed: number
    readonly stepsPerScenario: number
    readonly playedScenariosPerSecond: Spread
    readonly playedStepsPerSecond: Spread
    readonly comparedScenariosPerSecond: Spread
  }
  readonly cassettes?: {
    readonly count: number
    readonly verdicts: string
    /** `oracle compare --target cassette` from spawn to exit. */
    readonly wallSeconds: Spread
    /** The same CLI doing nothing (`oracle --help`): its start-up share of the wall time. */
    readonly cliStartSeconds: Spread
    /** The comparison's own elapsed time as the CLI's progress line reports it. */
    readonly reportedSeconds: Spread | undefined
  }
}

const oracle = (args: ReadonlyArray<string>) =>
  execa("node", ["--conditions=@hermetic/source", "--import", "tsx", "packages/diff/src/cli/main.ts", ...args], { cwd: repoRoot, reject: false, all: true, stdin: "ignore" })

const num = (re: RegExp, text: string): number | undefined => {
  const m = re.exec(text)
  return m?.[1] === undefined ? undefined : Number(m[1])
}

export const differ = async (opts: { readonly rounds: number; readonly scenarios: number; readonly pin: string; readonly log: (s: string) => void }): Promise<DifferResult> => {
  const todo = (why: string): DifferResult => {
    opts.log(`  TODO differ not measured: ${why}`)
    return { measured: false, todo: why, pin: opts.pin }
  }
  const seed = 1
  const played: Array<number> = []
  const steps: Array<number> = []
  const compared: Array<number> = []
  let perScenario = 0
  for (let round = 0; round < opts.rounds; round++) {
    const r = await oracle(["bench", "--runs", String(opts.scenarios), "--seed", String(seed), "--pin", opts.pin])
    const out = String(r.all)
    const p = num(/played on the emulator in process:\s+([\d.]+) scenarios\/s/, out)
    const s = num(/scenarios\/s, ([\d.]+) steps\/s/, out)
    const c = num(/compared emulator against emulator:\s+([\d.]+) comparisons\/s/, out)
    perScenario = num(/steps \(([\d.]+) per scenario\)/, out) ?? perScenario
    if (p === undefined || s === undefined || c === undefined) return todo(`\`oracle bench\` gave no rate (exit ${String(r.exitCode)}): ${out.slice(-400)}`)
    played.push(p)
    steps.push(s)
    compared.push(c)
    opts.log(`  oracle bench round ${round + 1}/${opts.rounds}: ${p} scenarios/s played, ${c} comparisons/s`)
  }
  const cassetteDir = join(repoRoot, "fixtures", opts.pin)
  let count = 0
  try {
    count = readdirSync(cassetteDir).filter((f) => f.endsWith(".json")).length
  } catch {
    return todo(`no committed cassettes under fixtures/${opts.pin}`)
  }
  const walls: Array<number> = []
  const starts: Array<number> = []
  const reported: Array<number> = []
  let verdicts = ""
  for (let round = 0; round < opts.rounds; round++) {
    const h0 = performance.now()
    await oracle(["--help"])
    starts.push((performance.now() - h0) / 1000)
    const out = mkdtempSync(join(tmpdir(), "hermetic-bench-oracle-"))
    try {
      const t0 = performance.now()
      const r = await oracle(["compare", "--target", "cassette", "--pin", opts.pin, "--out", out])
      const wall = (performance.now() - t0) / 1000
      const text = String(r.all)
      if (r.exitCode === 2) return todo(`\`oracle compare --target cassette\` could not run (exit 2): ${text.slice(-400)}`)
      walls.push(wall)
      const elapsed = [...text.matchAll(/\[oracle\] \d+\/\d+ \[([\d.]+)s\]/g)].map((m) => Number(m[1]))
      const last = elapsed[elapsed.length - 1]
      if (last !== undefined) reported.push(last)
      verdicts = /(\d+ scenarios: [^·\n]+)/.exec(text)?.[1]?.trim() ?? `exit ${String(r.exitCode)}`
      // what the CLI played (cassettes of other profiles are left out), not what the folder holds
      const played = /comparing (\d+) scenarios/.exec(text)?.[1]
      if (played !== undefined) count = Number(played)
      opts.log(`  cassette replay round ${round + 1}/${opts.rounds}: ${wall.toFixed(2)} s wall (${verdicts})`)
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  }
  return {
    measured: true,
    pin: opts.pin,
    generated: {
      scenarios: opts.scenarios,
      seed,
      stepsPerScenario: perScenario,
      playedScenariosPerSecond: spread(played),
      playedStepsPerSecond: spread(steps),
      comparedScenariosPerSecond: spread(compared)
    },
    cassettes: {
      count,
      verdicts,
      wallSeconds: spread(walls),
      cliStartSeconds: spread(starts),
      reportedSeconds: reported.length === 0 ? undefined : spread(reported)
    }
  }
}
