import { describe, expect, it } from "vitest"
import { closestMatch, sequenceRatio } from "../../../src/python/closeMatches.js"
import { repairToolName } from "../../../src/agent/tools/ToolNameRepair.js"
import { dataEvents, openClients, readSse } from "../../support.js"

// the tools profile's agent tools (terminal + todo toolsets)
const TOOLS = new Set(["process", "terminal", "todo"])

describe("sequenceRatio / closestMatch (difflib's ratio and get_close_matches, n=1)", () => {
  it("gives the ratios Python's SequenceMatcher gives", () => {
    // measured with CPython 3.11 difflib.SequenceMatcher(None, a, b).ratio()
    expect(sequenceRatio("terminal", "read_terminal")).toBeCloseTo(0.7619, 4)
    expect(sequenceRatio("terminal", "close_terminal")).toBeCloseTo(0.7273, 4)
    expect(sequenceRatio("todo", "do")).toBeCloseTo(0.6667, 4)
    expect(sequenceRatio("process", "proces")).toBeCloseTo(0.9231, 4)
    expect(sequenceRatio("qabxcabc", "abycab")).toBeCloseTo(0.7143, 4)
    expect(sequenceRatio("", "")).toBe(1)
  })

  it("drops the elements over 1% of a b of 200 or more (autojunk) from the index", () => {
    // Python: ratio("todo", "o" * 200) == 0.0 (autojunk), 4/204 without it
    expect(sequenceRatio("todo", "o".repeat(200))).toBe(0)
    expect(sequenceRatio("todo", "o".repeat(199))).toBeCloseTo(4 / 203, 10)
  })

  it("compares code points, not UTF-16 units", () => {
    // Python: ratio("a😀", "😀") == 2/3
    expect(sequenceRatio("a😀", "😀")).toBeCloseTo(2 / 3, 10)
  })

  it("keeps the best at or above the cutoff; a tie goes to the greater name", () => {
    expect(closestMatch("read_terminal", TOOLS, 0.7)).toBe("terminal")
    expect(closestMatch("do", TOOLS, 0.7)).toBeUndefined()
    expect(closestMatch("ab", ["ac", "ad"], 0.5)).toBe("ad")
    expect(closestMatch("ab", ["ad", "ac"], 0.5)).toBe("ad")
  })
})

describe("repairToolName (_repair_tool_call)", () => {
  it("repairs the desktop-only terminal tools the agent lacks to terminal (fuzzy)", () => {
    expect(repairToolName("read_terminal", TOOLS)).toBe("terminal")
    expect(repairToolName("close_terminal", TOOLS)).toBe("terminal")
    expect(repairToolName("termnial", TOOLS)).toBe("terminal")
  })

  it("tries the lower-cased, snake-cased and suffix-stripped spellings first", () => {
    expect(repairToolName("TERMINAL", TOOLS)).toBe("terminal")
    expect(repairToolName("TodoTool_tool", TOOLS)).toBe("todo")
    expect(repairToolName("Process-Tool", TOOLS)).toBe("process")
    expect(repairToolName("write file", new Set(["write_file"]))).toBe("write_file")
    expect(repairToolName("ReadFile", new Set(["read_file"]))).toBe("read_file")
  })

  it("cuts a leaked XML attribute tail off the name", () => {
    expect(repairToolName("terminal\" parameter=\"command\" string=\"true", TOOLS)).toBe("terminal")
    expect(repairToolName("todo<x>", TOOLS)).toBe("todo")
    // a separator at the very start cuts nothing
    expect(repairToolName("\"todo", TOOLS)).toBe("todo")
  })

  it("leaves a name with no close tool unknown", () => {
    expect(repairToolName("", TOOLS)).toBeUndefined()
    expect(repairToolName("browser_click", TOOLS)).toBeUndefined()
    expect(repairToolName("do", TOOLS)).toBeUndefined()
    expect(repairToolName("read_terminal", new Set())).toBeUndefined()
  })
})

const open = openClients()

describe("a call to a tool the agent lacks runs under its repaired name (observed live on 0.19.0)", () => {
  it("read_terminal runs as terminal: its label, its result and the stored call name", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["terminal", "todo"] })
    await c.script({ turns: [{ replies: [{ toolCalls: [{ name: "read_terminal", arguments: { text: "t", query: "q" } }] }, { text: "read" }] }] })
    const runId = String((await c.json("POST", "/v1/runs", { input: "read the terminal" })).body["run_id"])
    await c.waitForStatus(runId, ["completed"])
    const events = dataEvents(await readSse(await c.request("GET", `/v1/runs/${runId}/events`)))
    expect(events.map((e) => e["event"])).toEqual(["tool.started", "tool.completed", "message.delta", "reasoning.available", "run.completed"])
    expect(events[0]).toMatchObject({ tool: "terminal" })
    const messages = (await c.json("GET", `/api/sessions/${runId}/messages`)).body["data"] as Array<Record<string, unknown>>
    const call = (messages[1]?.["tool_calls"] as Array<{ function: { name: string } }>)[0]
    expect(call?.function.name).toBe("terminal")
    expect(messages[2]).toMatchObject({ tool_name: "terminal" })
    expect(String(messages[2]?.["content"])).toContain("Invalid command: expected string, got NoneType")
  })
})
