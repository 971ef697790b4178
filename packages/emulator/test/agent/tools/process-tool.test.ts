import { describe, expect, it } from "vitest"
import { callProcess, processLabel } from "../../../src/agent/tools/ProcessTool.js"
import { toolLabel } from "../../../src/agent/tools/ToolProgress.js"

const label = (args: Record<string, unknown>) => toolLabel("process", JSON.stringify(args))

describe("the process tool's progress label (build_tool_preview's process branch)", () => {
  it("shows the action, not a fallback argument", () => {
    expect(label({ action: "list", query: "q", text: "t", command: "c", path: "p", name: "n", prompt: "pr", code: "co", goal: "g" })).toBe("list")
  })

  it("adds session_id cut to 16 code points and data cut to 20 then collapsed, in quotes", () => {
    expect(label({ action: "poll", session_id: "proc_hermetic_0123456789", data: "  two\n words  and a long tail" })).toBe("poll proc_hermetic_01 \"two words and a\"")
    expect(processLabel({ action: "write", session_id: 42, data: "😀".repeat(25) })).toBe(`write 42 "${"😀".repeat(20)}"`)
  })

  it("adds the timeout with an s for a wait only", () => {
    expect(label({ action: "wait", session_id: "proc_missing", timeout: 5 })).toBe("wait proc_missing 5s")
    expect(label({ action: "poll", session_id: "p", timeout: 5 })).toBe("poll p")
    expect(label({ action: "wait", timeout: 0 })).toBe("wait")
  })

  it("falls back to the tool name when no part shows, whatever fallback keys the call carries", () => {
    expect(label({ name: "n", prompt: "pr", code: "co", goal: "g" })).toBe("process")
    expect(label({ action: "", session_id: "", data: "" })).toBe("process")
    expect(processLabel({ action: "" })).toBeUndefined()
  })
})

describe("the process tool's answers on a gateway with no background process", () => {
  it("lists no process", () => {
    expect(callProcess({ action: "list" })).toBe("{\"processes\": []}")
  })

  it("asks for a session_id, then finds no process with it", () => {
    expect(callProcess({ action: "kill" })).toBe("{\"error\": \"session_id is required for kill\"}")
    expect(callProcess({ action: "poll", session_id: null })).toBe("{\"error\": \"session_id is required for poll\"}")
    expect(callProcess({ action: "wait", session_id: "proc_missing", timeout: 5 })).toBe("{\"status\": \"not_found\", \"error\": \"No process with ID proc_missing\"}")
    expect(callProcess({ action: "close", session_id: 7 })).toBe("{\"status\": \"not_found\", \"error\": \"No process with ID 7\"}")
    expect(callProcess({ action: "log", session_id: "é\"" })).toBe("{\"status\": \"not_found\", \"error\": \"No process with ID é\\\"\"}")
  })

  it("refuses a missing or unknown action with the list of actions", () => {
    const actions = "Use: list, poll, log, wait, kill, write, submit, close"
    expect(callProcess({ name: "n" })).toBe(`{"error": "Unknown process action: . ${actions}"}`)
    expect(callProcess({ action: "bogus" })).toBe(`{"error": "Unknown process action: bogus. ${actions}"}`)
  })
})
