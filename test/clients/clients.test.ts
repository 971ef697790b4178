/**
 * The client compatibility matrix against the emulator, held to what the same clients did against
 * the real Hermes 0.19.0 gateway (evidence/clients/0.19.0-gateway.json, recorded by record.ts):
 * every case must end the same way, with the same text or the same client error. The Python half
 * runs where pip could install the openai SDK, and says why not otherwise.
 */
import { startEmulator, TEST_API_KEY } from "@hermetic/emulator"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pythonClients } from "../support/pythonClients.js"
import type { RecordedMatrix } from "./clientsReport.js"
import { type MatrixRow, runClientMatrix } from "./matrix.js"

const gateway = JSON.parse(readFileSync(new URL("../../evidence/clients/0.19.0-gateway.json", import.meta.url), "utf8")) as RecordedMatrix
const python = await pythonClients()
if ("skip" in python) console.log(`[skip] the openai Python SDK half of the client matrix: ${python.skip}`)

let rows: Array<MatrixRow> = []
let close = async () => {}

beforeAll(async () => {
  const emu = await startEmulator({ hermesVersion: "0.19.0", apiKey: TEST_API_KEY })
  close = emu.close
  const script = async (s: unknown) => {
    const res = await fetch(`${emu.url}/__admin/script`, {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify(s)
    })
    if (!res.ok) throw new Error(`script rejected: ${res.status}`)
  }
  rows = await runClientMatrix({ baseUrl: emu.url, apiKey: TEST_API_KEY, script }, "python" in python ? { python: python.python, adminUrl: emu.url } : undefined)
}, 180_000)
afterAll(() => close())

describe("client matrix: the emulator as the real 0.19.0 gateway", () => {
  const expected = gateway.rows.filter((r) => r.client !== "openai-python" || "python" in python)
  it.each(expected.map((r) => [r.client, r.case, r] as const))("%s, %s", (client, name, onGateway) => {
    const onEmulator = rows.find((r) => r.client === client && r.case === name)
    expect({ outcome: onEmulator?.outcome, detail: onEmulator?.detail }).toEqual({ outcome: onGateway.outcome, detail: onGateway.detail })
  })

  it("covers every case the gateway was recorded with", () => {
    expect(rows.map((r) => `${r.client}: ${r.case}`).sort()).toEqual(expected.map((r) => `${r.client}: ${r.case}`).sort())
  })
})
