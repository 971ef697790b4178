/**
 * Hermes 0.19.0's `coerce_tool_args` before a registry tool runs. Expected values are what the
 * pinned model_tools.coerce_tool_args returned for the same arguments and schemas (run in the 0.19.0
 * venv with the registry's schema lookup pointed at these schemas); the terminal case is seen live
 * (packages/diff/scenarios/tools/terminal-string-arguments-coerced-to-schema-types.json).
 */
import { describe, expect, it } from "vitest"
import { coerceArguments, coerceToolArguments, normalizeNestedJson, schemaAllowsNull } from "../../../src/agent/tools/ToolArgumentCoercion.js"
import { PyInt } from "../../../src/python/index.js"
import { openClients } from "../../support.js"

const open = openClients()

const REFUSAL = '{"error": "Foreground timeout 601s exceeds the maximum of 600s. Use background=true with notify_on_complete=true for long-running commands."}'

const terminal = (args: Record<string, unknown>) => coerceToolArguments("terminal", args)

/** Properties exercising every rule; as upstream reads a schema, whatever the tool. */
const PROPS = {
  i: { type: "integer" },
  n: { type: "number" },
  b: { type: "boolean" },
  a: { type: "array", items: { type: "object", properties: { sub: { type: "array" } } } },
  an: { type: "array", nullable: true },
  o: { type: "object", properties: { inner: { type: "object" }, l: { anyOf: [{ type: "array" }] } } },
  u: { type: ["integer", "boolean"] },
  un: { type: ["string", "null"] },
  nt: { anyOf: [{ type: "string" }, { type: "null" }] },
  nullableOnly: { nullable: true },
  notype: { description: "x" },
  s: { type: "string" },
  e: {}
}
const coerce = (args: Record<string, unknown>) => coerceArguments(PROPS, args)

describe("terminal arguments coerced to TERMINAL_SCHEMA", () => {
  it("reads integer and boolean strings as Python's float()/int() and str.strip().lower() do", () => {
    expect(terminal({ command: "echo a", timeout: "601" })).toEqual({ command: "echo a", timeout: 601 })
    expect(terminal({ command: "echo a", timeout: " 601.0 ", background: "FALSE", pty: " True " }))
      .toEqual({ command: "echo a", timeout: 601, background: false, pty: true })
    expect(terminal({ command: "echo a", timeout: "-0" })).toEqual({ command: "echo a", timeout: 0 })
    expect(terminal({ command: "echo a", timeout: "1e20" })).toEqual({ command: "echo a", timeout: new PyInt(100000000000000000000n) })
    expect(terminal({ command: "echo a", timeout: "1e3", notify_on_complete: "false" })).toEqual({ command: "echo a", timeout: 1000, notify_on_complete: false })
  })

  it("keeps what does not read as the wanted type: a fraction for an integer, inf, nan, yes", () => {
    for (const timeout of ["600.5", "inf", "nan", "1e400", "0x10", "abc"]) {
      expect(terminal({ command: "echo a", timeout, background: "yes" })).toEqual({ command: "echo a", timeout, background: "yes" })
    }
  })

  it("wraps a bare value where an array is wanted, parses a JSON array string, keeps None", () => {
    expect(terminal({ command: 5, timeout: 601.5, watch_patterns: "ready" })).toEqual({ command: 5, timeout: 601.5, watch_patterns: ["ready"] })
    expect(terminal({ command: "x", watch_patterns: '["a", "b"]' })).toEqual({ command: "x", watch_patterns: ["a", "b"] })
    expect(terminal({ command: "x", watch_patterns: "[oops" })).toEqual({ command: "x", watch_patterns: ["[oops"] })
    expect(terminal({ command: "x", watch_patterns: 3 })).toEqual({ command: "x", watch_patterns: [3] })
    expect(terminal({ command: "x", watch_patterns: null })).toEqual({ command: "x", watch_patterns: null })
    // not nullable: "null" is a pattern like any other
    expect(terminal({ command: "x", watch_patterns: "null" })).toEqual({ command: "x", watch_patterns: ["null"] })
    expect(terminal({ command: "x", unknown: "5", toString: "5" })).toEqual({ command: "x", unknown: "5", toString: "5" })
  })

  it("changes the arguments in place, as upstream mutates the dict the loop holds", () => {
    const args: Record<string, unknown> = { command: "echo a", timeout: "601" }
    expect(terminal(args)).toBe(args)
    expect(args["timeout"]).toBe(601)
  })

  it("leaves todo alone: the agent runs it with the arguments as parsed", () => {
    expect(coerceToolArguments("todo", { todos: "[]", merge: "true" })).toEqual({ todos: "[]", merge: "true" })
    expect(coerceToolArguments("process", { timeout: "5" })).toEqual({ timeout: "5" })
  })
})

describe("coercion rules on any schema", () => {
  it("reads numbers: a fraction stays for an integer, not for a number", () => {
    expect(coerce({ n: "2.5", i: "2.5", b: "1" })).toEqual({ n: 2.5, i: "2.5", b: "1" })
    expect(coerce({ n: "-1e3", i: "0x10" })).toEqual({ n: -1000, i: "0x10" })
    expect(coerce({ i: 5, b: true })).toEqual({ i: 5, b: true })
    expect(coerce({})).toEqual({})
  })

  it("parses JSON text into the container wanted, and JSON text nested where containers are wanted", () => {
    expect(coerce({ a: '[{"sub": "[1]"}]' })).toEqual({ a: [{ sub: "[1]" }] })
    expect(coerce({ a: ['{"sub": "[1]"}', { sub: "[2]" }, 3] })).toEqual({ a: [{ sub: [1] }, { sub: [2] }, 3] })
    expect(coerce({ a: '{"sub": 1}' })).toEqual({ a: ['{"sub": 1}'] })
    expect(coerce({ o: '{"inner": "{\\"k\\": 1}", "l": " [1] "}' })).toEqual({ o: { inner: { k: 1 }, l: [1] } })
    expect(coerce({ o: { inner: "{bad", l: "[1]", other: "[2]" } })).toEqual({ o: { inner: "{bad", l: [1], other: "[2]" } })
    expect(coerce({ o: "[1]" })).toEqual({ o: "[1]" })
  })

  it("reads \"null\" as None where the schema allows null, in any case and with spaces", () => {
    expect(coerce({ an: " NULL " })).toEqual({ an: null })
    expect(coerce({ an: "x" })).toEqual({ an: ["x"] })
    expect(coerce({ un: "null" })).toEqual({ un: null })
    expect(coerce({ un: "Null " })).toEqual({ un: null })
    expect(coerce({ nt: "null" })).toEqual({ nt: null })
    expect(coerce({ nullableOnly: "null", notype: "null", s: "null", e: "5" })).toEqual({ nullableOnly: null, notype: "null", s: "null", e: "5" })
  })

  it("tries a union's types in order", () => {
    expect(coerce({ u: "true" })).toEqual({ u: true })
    expect(coerce({ u: "7" })).toEqual({ u: 7 })
    expect(coerce({ u: "x" })).toEqual({ u: "x" })
  })

  it("knows null from type, a type list, nullable and anyOf/oneOf branches only", () => {
    expect(schemaAllowsNull({ type: "null" })).toBe(true)
    expect(schemaAllowsNull({ type: ["null"] })).toBe(true)
    expect(schemaAllowsNull({ nullable: true })).toBe(true)
    expect(schemaAllowsNull({ nullable: "yes" })).toBe(false)
    expect(schemaAllowsNull({ oneOf: [{ type: "string" }, { type: "null" }] })).toBe(true)
    expect(schemaAllowsNull({ allOf: [{ type: "null" }] })).toBe(false)
    expect(schemaAllowsNull({ anyOf: { type: "null" } })).toBe(false)
    expect(schemaAllowsNull(undefined)).toBe(false)
  })

  it("normalizes nested JSON through anyOf/oneOf/allOf, returning the same value when nothing changed", () => {
    const same = ["x", { k: 1 }]
    expect(normalizeNestedJson(same, { type: "array", items: { type: "object" } })).toBe(same)
    expect(normalizeNestedJson("[1]", { oneOf: [{ type: "string" }, { type: ["array"] }] })).toEqual([1])
    expect(normalizeNestedJson('{"a": 1}', { allOf: [{ type: "object" }] })).toEqual({ a: 1 })
    expect(normalizeNestedJson("[1]", { type: "object" })).toBe("[1]")
    expect(normalizeNestedJson('{"a": 1}', { type: "array" })).toBe('{"a": 1}')
    expect(normalizeNestedJson("[1]", "not a schema")).toBe("[1]")
    const obj = { inner: "{}" }
    expect(normalizeNestedJson(obj, { type: "object", properties: { inner: "not a schema" } })).toBe(obj)
  })
})

describe("a terminal call whose timeout comes as a string", () => {
  it("is refused by the foreground cap once the string is read as the schema's integer", async () => {
    const c = await open({ hermesVersion: "0.19.0", enabledToolsets: ["terminal"] })
    await c.script({ turns: [{ replies: [{ toolCalls: [
      { id: "call_str", name: "terminal", arguments: { command: "echo str", timeout: "601" } },
      { id: "call_exp", name: "terminal", arguments: { command: "echo exp", timeout: "1e3" } },
      { id: "call_bg_false", name: "terminal", arguments: { command: "echo bg", timeout: "601", background: "FALSE" } },
      { id: "call_cap", name: "terminal", arguments: { command: "echo cap", timeout: "600" } }
    ] }, { text: "done" }] }] })
    const a = await c.json<{ output: Array<Record<string, unknown>> }>("POST", "/v1/responses", { model: "hermes-agent", input: "timeouts" })
    const outputs = a.body.output.filter((item) => item["type"] === "function_call_output").map((item) => [item["call_id"], item["output"]])
    expect(outputs).toEqual([
      ["call_str", REFUSAL],
      ["call_exp", REFUSAL.replace("601s", "1000s")],
      ["call_bg_false", REFUSAL],
      ["call_cap", '{"output": "cap", "exit_code": 0, "error": null}']
    ])
    // the stored call keeps the model's text: coercion changes what the tool gets, not the transcript
    const call = a.body.output.find((item) => item["type"] === "function_call" && item["call_id"] === "call_str")
    expect(call?.["arguments"]).toBe('{"command":"echo str","timeout":"601"}')
  })
})
