/** `oracle`'s option table: each command takes only its own options, help names them all, and the progress meter's two renderings. */
import { closest } from "@hermetic/script"
import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { COMMANDS, optionsOf, parseCommand } from "../src/cli/args.js"
import { HELP } from "../src/cli/program.js"
import { progressMeter, renderBar } from "../src/cli/progress.js"
import { MAIN_HELP } from "../src/cli/usage.js"

const parse = (command: Parameters<typeof parseCommand>[0], ...argv: Array<string>) => Effect.runSync(Effect.either(parseCommand(command, argv)))

describe("per-command options", () => {
  it("refuses an option of another command and lists the command's own", () => {
    const r = parse("replay", "F", "--workers", "3", "--base", "x")
    expect(Either.isLeft(r)).toBe(true)
    const message = Either.isLeft(r) ? r.left.message : ""
    expect(message).toContain("--workers is not an option of replay (it belongs to compare, bench)")
    expect(message).toContain(`replay takes ${optionsOf("replay").map((o) => `--${o}`).join(", ")}`)
  })

  it("suggests the closest option of the command, and none when nothing is close", () => {
    const near = parse("compare", "--worker", "2")
    expect(Either.isLeft(near) ? near.left.message : "").toContain("did you mean --workers?")
    const far = parse("compare", "--zzzzzz")
    expect(Either.isLeft(far) ? far.left.message : "").not.toContain("did you mean")
    expect(closest("seed", ["shard", "seed"])).toBe("seed")
    expect(closest("x", ["out", "pin"])).toBeUndefined()
  })

  it("accepts the command's own options and checks positionals", () => {
    const ok = parse("replay", "F", "--target", "cassette", "--json")
    expect(Either.getOrThrow(ok).values).toMatchObject({ target: "cassette", json: true })
    expect(Either.getOrThrow(ok).positionals).toEqual(["F"])
    expect(Either.isLeft(parse("replay"))).toBe(true)
    expect(Either.isLeft(parse("compare", "stray"))).toBe(true)
    expect(Either.getOrThrow(parse("merge", "a", "b")).positionals).toEqual(["a", "b"])
  })

  it("every command is in the main help, and each command's help names every option it takes", () => {
    for (const command of COMMANDS) {
      expect(MAIN_HELP).toContain(`oracle ${command}`)
      for (const option of optionsOf(command)) if (option !== "help") expect([command, HELP[command]]).toEqual([command, expect.stringContaining(`--${option}`)])
    }
  })
})

describe("progress meter", () => {
  const run = (tty: boolean) => {
    const out: Array<string> = []
    let t = 0
    const meter = progressMeter(4, { tty, write: (s) => void out.push(s), now: () => t, columns: 200 })
    t = 1000
    meter.tick(1, "equal     health")
    meter.log("a log line")
    t = 2000
    meter.tick(2, "divergent runs")
    meter.end()
    return out.join("")
  }

  it("prints one plain line per item off a terminal", () => {
    expect(run(false)).toBe("[oracle] 1/4 [1.0s] equal     health\n[oracle] a log line\n[oracle] 2/4 [2.0s] divergent runs\n")
  })

  it("redraws one bar with the ETA on a terminal, logs above it, and clears it at the end", () => {
    const text = run(true)
    expect(text).toContain(renderBar(1, 4, 1000, "equal     health", 200))
    expect(text).toContain("ETA 3.0s")
    expect(text).toContain("ETA 2.0s")
    expect(text).toContain("\r\x1b[K[oracle] a log line\n")
    expect(text.endsWith("\r\x1b[K")).toBe(true)
    expect(text).not.toContain("[oracle] 1/4 [")
  })

  it("off a terminal, prints every n-th item and the last when asked to", () => {
    const out: Array<string> = []
    const meter = progressMeter(5, { tty: false, write: (s) => void out.push(s), now: () => 0, lineEvery: 2 })
    for (let done = 1; done <= 5; done++) meter.tick(done, "x")
    expect(out).toEqual(["[oracle] 2/5 [0.0s] x\n", "[oracle] 4/5 [0.0s] x\n", "[oracle] 5/5 [0.0s] x\n"])
  })

  it("draws the bar in proportion and cuts it to the width", () => {
    expect(renderBar(2, 4, 2000, "x", 200)).toContain(`${"█".repeat(10)}${"░".repeat(10)} 2/4  50% 2.0s ETA 2.0s  x`)
    expect([...renderBar(1, 4, 0, "a very long detail ".repeat(10), 40)].length).toBe(39)
  })
})
