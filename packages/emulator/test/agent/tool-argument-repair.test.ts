/**
 * Tool-call argument text json.loads refuses (agent/ToolArgumentRepair.ts, AgentLoop.ts): the
 * repairs Hermes' streamed model call makes, and what the turn does when none works. What the real
 * 0.19.0 gateway did is in evidence/live-comparisons/runs-responses-edges/invalid-json-arguments/.
 */
import { describe, expect, it } from "vitest"
import { escapeControlCharsInStrings, repairToolArguments, streamedArgumentText } from "../../src/agent/ToolArgumentRepair.js"
import { openClients } from "../support.js"

describe("repairToolArguments", () => {
  it("drops a trailing comma before a closer and keeps the rest of the text as written", () => {
    expect(repairToolArguments('{"todos": [{"id": "1"}],}')).toBe('{"todos": [{"id": "1"}]}')
    expect(repairToolArguments('{"a": [1, 2, ], "b": 1 ,}')).toBe('{"a": [1, 2], "b": 1 }')
  })

  it("closes what is left open (braces first, then brackets) and drops extra closers from the end", () => {
    expect(repairToolArguments('{"a": 1')).toBe('{"a": 1}')
    expect(repairToolArguments('{"a": 1}}}')).toBe('{"a": 1}')
    expect(repairToolArguments('{"a": [1')).toBe("{}")
  })

  it("re-serializes compactly what only raw control characters in strings broke", () => {
    expect(repairToolArguments('{"a": "x\ty", "b": [1, 2]}')).toBe('{"a":"x\\ty","b":[1,2]}')
    expect(escapeControlCharsInStrings('{"a": "\u0001\\"\n"}\n')).toBe('{"a": "\\u0001\\"\\u000a"}\n')
  })

  it("gives {} for blank text, Python's None, and text nothing repairs", () => {
    expect(repairToolArguments("  ")).toBe("{}")
    expect(repairToolArguments("None")).toBe("{}")
    expect(repairToolArguments("not json")).toBe("{}")
    expect(repairToolArguments("{bad}")).toBe("{}")
  })
})

describe("streamedArgumentText", () => {
  it("keeps blank and parsing text, repairs what repairs, and calls the rest unrepairable", () => {
    expect(streamedArgumentText("")).toEqual({ _tag: "kept", text: "" })
    expect(streamedArgumentText(' {"a": 1} ')).toEqual({ _tag: "kept", text: ' {"a": 1} ' })
    expect(streamedArgumentText('{"a": 1,}')).toEqual({ _tag: "repaired", text: '{"a": 1}' })
    expect(streamedArgumentText("not json")).toEqual({ _tag: "unrepairable" })
    // a text repaired to an empty object is taken for unrepairable, as upstream compares with "{}"
    expect(streamedArgumentText("{,}")).toEqual({ _tag: "unrepairable" })
  })
})

const open = openClients()
const chat = async (c: Awaited<ReturnType<typeof open>>, content: string) =>
  (await c.json<{ choices: Array<{ message: { content: string } }> }>("POST", "/v1/chat/completions", { model: "hermes-agent", messages: [{ role: "user", content }] })).body
    .choices[0]?.message.content

describe("a turn whose tool call has argument text json.loads refuses", () => {
  it("runs the tool with the repaired text and stores that text", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    await c.json("POST", "/api/sessions", { id: "rep" })
    await c.script({ turns: [{ replies: [{ toolCalls: [{ id: "call_r", name: "todo", arguments: '{"todos": [{"id": "1", "content": "c", "status": "pending"}],}' }] }, { text: "ran" }] }] })
    await c.json("POST", "/api/sessions/rep/chat", { message: "repair it" })
    const messages = (await c.json<{ data: Array<Record<string, unknown>> }>("GET", "/api/sessions/rep/messages")).body.data
    const call = (messages[1]?.["tool_calls"] as Array<{ function: { arguments: string } }>)[0]
    expect(call?.function.arguments).toBe('{"todos": [{"id": "1", "content": "c", "status": "pending"}]}')
    expect(String(messages[2]?.["content"])).toContain('"total": 1')
  })

  it("asks the model again with the same transcript (a new Script turn) and runs nothing", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    const broken = { replies: [{ toolCalls: [{ id: "call_b", name: "todo", arguments: "not json" }] }, { text: "never" }] }
    await c.script({ turns: [broken, { replies: [{ text: "second turn answers the retry" }] }] })
    expect(await chat(c, "broken once")).toBe("second turn answers the retry")
  })

  it("ends the turn as truncated after the fifth such reply in a row", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    const broken = { replies: [{ toolCalls: [{ id: "call_b", name: "todo", arguments: "{bad}" }] }] }
    await c.script({ turns: [broken, broken, broken, broken, broken, { replies: [{ text: "not reached" }] }] })
    expect(await chat(c, "broken five times")).toBe("Response truncated due to output length limit")
  })

  it("treats a reply with tool calls cut by the length limit the same way", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    const cut = { replies: [{ toolCalls: [{ id: "call_c", name: "todo", arguments: {} }], finishReason: "length" as const }] }
    await c.script({ turns: [cut, { replies: [{ text: "after the cut call" }] }] })
    expect(await chat(c, "cut call")).toBe("after the cut call")
  })
})

describe("blank argument text (tools-argument-repair-edges, tools-blank-arguments-and-todo-across-turns)", () => {
  const storedArguments = async (c: Awaited<ReturnType<typeof open>>, session: string) => {
    const messages = (await c.json<{ data: Array<Record<string, unknown>> }>("GET", `/api/sessions/${session}/messages`)).body.data
    return messages.flatMap((m) => ((m["tool_calls"] ?? []) as Array<{ function: { arguments: string } }>).map((tc) => tc.function.arguments))
  }

  it("becomes {} for every call of a round that runs a tool, an unknown tool's call too", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    await c.json("POST", "/api/sessions", { id: "blank" })
    const calls = [{ id: "call_t", name: "todo", arguments: "   " }, { id: "call_u", name: "no_such_tool", arguments: "" }]
    await c.script({ turns: [{ replies: [{ toolCalls: calls }, { text: "ran" }] }] })
    await c.json("POST", "/api/sessions/blank/chat", { message: "blank arguments" })
    expect(await storedArguments(c, "blank")).toEqual(["{}", "{}"])
  })

  it("of an unknown-tool round becomes {} before the next model call (the third such round is not stored)", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["todo"] })
    await c.json("POST", "/api/sessions", { id: "unknown" })
    const unknown = (i: number) => ({ toolCalls: [{ id: `call_u${i}`, name: "no_such_tool", arguments: " \n " }] })
    await c.script({ turns: [{ replies: [unknown(1), unknown(2), unknown(3)] }] })
    await c.json("POST", "/api/sessions/unknown/chat", { message: "unknown tool three times" })
    expect(await storedArguments(c, "unknown")).toEqual(["{}", "{}"])
  })
})
