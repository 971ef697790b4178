/**
 * The container launcher: the 0.19.0 gateway in a locally built image (Debian base + PyPI wheels),
 * host networking, fake model on host loopback. Needs a running engine
 * (scripts/container-engine.sh up) and HERMETIC_LIVE=1 (a cold image build takes about a minute).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { probeEngine } from "../src/container/engine.js"
import type { GatewayHandle } from "../src/gateway/Gateway.js"
import { startGateway } from "../src/gateway/GatewayResource.js"

const live = process.env["HERMETIC_LIVE"] === "1"
const engine = live ? await probeEngine() : { ok: false as const, reason: "HERMETIC_LIVE is not 1" }
const skipReason = !live ? "set HERMETIC_LIVE=1" : engine.ok ? null : `no container engine (${engine.reason}); start one with scripts/container-engine.sh up`
if (skipReason) console.log(`[skip] container gateway tests: ${skipReason}`)

describe.skipIf(skipReason !== null)("real Hermes 0.19.0 gateway (container launcher)", () => {
  let gw: GatewayHandle
  const auth = () => ({ authorization: `Bearer ${gw.apiKey}`, "content-type": "application/json" })

  beforeAll(async () => {
    gw = await startGateway({ pin: "0.19.0", launcher: "container", progress: (l) => console.log(l) })
  }, 600_000)
  afterAll(async () => {
    await gw?.stop()
  }, 60_000)

  it("runs in a container and plays a scripted chat completion", async () => {
    expect(gw.containerId()).toMatch(/^[0-9a-f]{64}$/)
    expect(gw.processGroup()).toBeNull()
    expect(await (await fetch(`${gw.baseUrl}/health`)).json()).toEqual({ status: "ok", platform: "hermes-agent", version: "0.19.0" })
    gw.script({ turns: [{ replies: [{ text: "from the container" }] }] })
    const r = await fetch(`${gw.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: auth(),
      body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: "container chat" }] })
    })
    expect(((await r.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content).toBe("from the container")
    expect(gw.journal().filter((e) => e.kind === "main").map((e) => e.lastUser)).toEqual(["container chat"])
    // a fresh gateway's first agent turn imports most of Hermes: on a loaded machine that alone took over 30 s
  }, 120_000)

  it("crashes (SIGKILL) and comes back on the same HERMES_HOME in a new container", async () => {
    const before = gw.containerId()
    await gw.crash()
    expect(gw.containerId()).not.toBe(before)
    expect((await fetch(`${gw.baseUrl}/health`)).status).toBe(200)
  }, 120_000)
})
