/**
 * The ids Hermes 0.19.0 stores on an assistant's tool calls, from the id the model sent
 * (packages/diff/scenarios/tools/model-calls-stored-tool-call-id-shapes.json, compared live).
 */
import { describe, expect, it } from "vitest"
import { storedToolCallIds } from "../../src/agent/ToolCallIds.js"

describe("stored tool-call ids", () => {
  it.each([
    ["call_1", "call_1", "fc_1"],
    [" call_pad ", "call_pad", "fc_pad"],
    ["call_a|fc_b", "call_a", "fc_b"],
    ["call_x|y", "call_x", "fc_x"],
    ["|fc_only", "|fc_only", "fc_only"],
    ["fc_own", "fc_own", "fc_own"],
    ["tool.one-2", "tool.one-2", "fc_toolone-2"],
    ["a.call_b", "a.call_b", "fc_acall_b"],
    ["x.fc_y", "x.fc_y", "fc_xfc_y"],
    [".call_z", ".call_z", "fc_z"],
    [".fc_w", ".fc_w", "fc_w"],
    ["call_", "call_", "fc_call_"],
    ["é!", "é!", "fc_9f7ec54519f35e111caeec12"],
    ["x".repeat(60), "x".repeat(60), `fc_${"x".repeat(48)}`]
  ])("%j is stored as %j with the item id %j", (raw, callId, responseItemId) => {
    expect(storedToolCallIds(raw)).toEqual({ callId, responseItemId })
  })
})
