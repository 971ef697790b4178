/**
 * The CLI faces of the test-author tools, as a user runs them: `serve --snapshot FILE
 * --journal-bodies`, `record --upstream URL --out DIR` in front of it, `replay DIR`.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { startEmulator } from "../../src/index.js"

const BIN = new URL("../../bin/hermes-emulator.cjs", import.meta.url).pathname
const KEY = "cli-key-0123456789abcdef"
// the control plane wants JSON and the API key
const ADMIN = { "content-type": "application/json", "x-hermetic-admin-key": KEY }
const children: Array<ChildProcess> = []
const dir = mkdtempSync(join(tmpdir(), "hermetic-cli-"))
afterAll(() => {
  for (const c of children) c.kill("SIGTERM")
  rmSync(dir, { recursive: true, force: true })
})

/** Starts the CLI and resolves with the first http URL it prints on stdout. */
const run = (args: ReadonlyArray<string>): Promise<{ child: ChildProcess; url: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, API_SERVER_KEY: "" } })
    children.push(child)
    let out = ""
    let err = ""
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString()
      // the URL to talk to is the last one on the ready line (record names its upstream first)
      const line = out.split("\n").find((l) => l.includes("listening on") || l.includes("point your application at") || l.includes("replaying")) ?? ""
      const url = [...line.matchAll(/http:\/\/127\.0\.0\.1:\d+/g)].pop()?.[0]
      if (url !== undefined) resolve({ child, url })
    })
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()))
    child.on("exit", (code) => reject(new Error(`hermes-emulator ${args.join(" ")} exited ${code}: ${out}${err}`)))
  })

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })

describe("hermes-emulator serve --snapshot, record, replay", () => {
  it("starts from a snapshot, records traffic through a proxy, and replays it", async () => {
    // a snapshot with one conversation, made in process
    const seed = await startEmulator({ apiKey: KEY })
    await fetch(`${seed.url}/__admin/script`, { method: "POST", headers: ADMIN, body: JSON.stringify({ turns: [{ replies: [{ text: "saved answer" }] }] }) })
    await fetch(`${seed.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "x-hermes-session-id": "cli-session" },
      body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: "saved question" }] })
    })
    const { snapshot } = (await (await fetch(`${seed.url}/__admin/snapshot`, { method: "POST", headers: ADMIN, body: JSON.stringify({ action: "save" }) })).json()) as { snapshot: unknown }
    await seed.close()
    const file = join(dir, "snapshot.json")
    writeFileSync(file, JSON.stringify(snapshot))

    const serve = await run(["serve", "--port", "0", "--api-key", KEY, "--snapshot", file, "--journal-bodies"])
    const out = join(dir, "recording")
    const record = await run(["record", "--upstream", serve.url, "--out", out, "--port", "0"])
    const messages = async (base: string) => {
      const r = await fetch(`${base}/api/sessions/cli-session/messages`, { headers: { authorization: `Bearer ${KEY}` } })
      return { status: r.status, body: await r.text() }
    }
    const recorded = await messages(record.url)
    expect(recorded.status).toBe(200)
    expect(recorded.body).toContain("saved answer")
    // the served emulator journaled the request with its body on, key redacted
    const journal = (await (await fetch(`${serve.url}/__admin/journal?operation=sessions.messages`, { headers: ADMIN })).json()) as { entries: Array<{ request?: { headers: Record<string, string> } }> }
    expect(journal.entries[0]?.request?.headers["authorization"]).toBe("[REDACTED]")
    await stop(record.child)
    await stop(serve.child)
    expect(readdirSync(join(out, "exchanges"))).toHaveLength(1)

    const replay = await run(["replay", out, "--port", "0", "--speed", "0"])
    expect(await messages(replay.url)).toEqual(recorded)
    expect((await fetch(`${replay.url}/api/sessions/other/messages`)).status).toBe(501)
    await stop(replay.child)
  }, 120_000)
})
