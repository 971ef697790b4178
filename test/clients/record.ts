/**
 * Records the client matrix against the emulator and the real Hermes gateway (started by the oracle
 * runner; needs HERMETIC_LIVE=1), writes evidence/clients/<pin>-{emulator,gateway}.json and the
 * "Clients" section of evidence/REPORT.md.
 *   HERMETIC_LIVE=1 node --conditions=@hermetic/source --import tsx test/clients/record.ts
 */
import { startEmulator, TEST_API_KEY } from "@hermetic/emulator"
import { startGateway } from "@hermetic/oracle-runner"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pythonClients } from "../support/pythonClients.js"
import { renderClientsSection, type RecordedMatrix, withClientsSection } from "./clientsReport.js"
import { runClientMatrix } from "./matrix.js"

const PIN = "0.19.0"
const repo = new URL("../../", import.meta.url).pathname
const evidence = join(repo, "evidence")
const versionOf = (name: string) => (JSON.parse(readFileSync(join(repo, "node_modules", name, "package.json"), "utf8")) as { version: string }).version

const python = await pythonClients()
if ("skip" in python) throw new Error(`the Python clients are needed for a recording: ${python.skip}`)
const versions = { openai: versionOf("openai"), "openai (Python)": "2.24.0", ai: versionOf("ai"), "@ai-sdk/openai": versionOf("@ai-sdk/openai") }

const emulator = await startEmulator({ hermesVersion: PIN, apiKey: TEST_API_KEY })
const adminPost = (url: string) => async (script: unknown) => {
  const res = await fetch(`${url}/__admin/script`, {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_API_KEY}`, "content-type": "application/json" },
    body: JSON.stringify(script)
  })
  if (!res.ok) throw new Error(`script rejected: ${res.status} ${await res.text()}`)
}
const onEmulator: RecordedMatrix = {
  target: "emulator", pin: PIN, recordedAt: new Date().toISOString(), versions,
  rows: await runClientMatrix({ baseUrl: emulator.url, apiKey: TEST_API_KEY, script: adminPost(emulator.url) }, { python: python.python, adminUrl: emulator.url })
}
await emulator.close()
writeFileSync(join(evidence, "clients", `${PIN}-emulator.json`), `${JSON.stringify(onEmulator, null, 2)}\n`)

if (process.env["HERMETIC_LIVE"] !== "1") {
  console.log("[skip] the real gateway: set HERMETIC_LIVE=1 to record it (wrote the emulator's matrix only)")
  process.exit(0)
}
const gw = await startGateway({ pin: PIN, progress: (l) => process.stderr.write(`[gateway] ${l}\n`) })
let onGateway: RecordedMatrix
try {
  onGateway = {
    target: "gateway", pin: PIN, recordedAt: new Date().toISOString(), versions,
    rows: await runClientMatrix(
      { baseUrl: gw.baseUrl, apiKey: gw.apiKey, script: async (s) => void gw.script(s) },
      { python: python.python, adminUrl: gw.fakeModelUrl }
    )
  }
} finally {
  await gw.stop()
}
writeFileSync(join(evidence, "clients", `${PIN}-gateway.json`), `${JSON.stringify(onGateway, null, 2)}\n`)
const section = renderClientsSection(onEmulator, onGateway)
writeFileSync(join(evidence, "clients", "CLIENTS.md"), `${section}\n`)
const reportPath = join(evidence, "REPORT.md")
let report = ""
try {
  report = readFileSync(reportPath, "utf8")
} catch {
  report = "# hermetic evidence\n"
}
writeFileSync(reportPath, withClientsSection(report, section))
console.log(section)
