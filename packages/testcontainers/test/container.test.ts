/**
 * HermesEmulatorContainer against the built image (image/build.sh): start, script a reply, chat
 * through the official OpenAI SDK, journal, clock, faults, snapshot, stop, and no container left.
 * Skips, printing why, where no engine runs or the image is not built; HERMETIC_REQUIRE_CONTAINER=1
 * (the container smoke) turns that skip into a failure. The engine here has no bridge network
 * (scripts/container-engine.sh), so the container uses the host's, bound to 127.0.0.1.
 */
import { Effect } from "effect"
import OpenAI from "openai"
import { getContainerRuntimeClient, ImageName } from "testcontainers"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEFAULT_IMAGE, HermesEmulatorContainer, type StartedHermesEmulatorContainer, startedContainer } from "../src/index.js"

process.env["TESTCONTAINERS_RYUK_DISABLED"] ??= "true"
process.env["TESTCONTAINERS_HOST_OVERRIDE"] ??= "localhost"

const IMAGE = process.env["HERMETIC_EMULATOR_IMAGE"] ?? DEFAULT_IMAGE
const skip = await (async () => {
  try {
    const client = await getContainerRuntimeClient()
    return (await client.image.exists(ImageName.fromString(IMAGE))) ? undefined : `image ${IMAGE} is not built (image/build.sh)`
  } catch (e) {
    return `no container engine: ${e instanceof Error ? e.message : String(e)}`
  }
})()
if (skip !== undefined) {
  if (process.env["HERMETIC_REQUIRE_CONTAINER"] === "1") throw new Error(`the container smoke needs an engine and the image: ${skip}`)
  console.log(`[skip] @hermetic/testcontainers: ${skip}`)
}

const KEY = "tc-key-0123456789abcdef"

describe.skipIf(skip !== undefined)("HermesEmulatorContainer", () => {
  let emu: StartedHermesEmulatorContainer
  let id = ""
  beforeAll(async () => {
    emu = await new HermesEmulatorContainer(IMAGE).withApiKey(KEY).withHermesVersion("0.19.0").withJournalBodies().withHostNetwork().start()
    id = emu.getId()
  }, 60_000)
  afterAll(async () => {
    await emu?.stop()
    // stop() removes the container: nothing of it is left (no reaper runs here)
    const client = await getContainerRuntimeClient()
    const left = await client.container.list()
    expect(left.filter((c) => c.Id === id)).toEqual([])
  })

  it("serves the pinned Hermes, answers what was scripted, and journals it", async () => {
    const health = await fetch(`${emu.getBaseUrl()}/health`)
    expect(health.status).toBe(200)
    const control = emu.control()
    expect(await control.script({ turns: [{ replies: [{ text: "Hello from the container" }] }] })).toEqual({ appended: 1, pendingTurns: 1 })

    const openai = new OpenAI({ baseURL: `${emu.getBaseUrl()}/v1`, apiKey: emu.getApiKey() })
    const completion = await openai.chat.completions.create({ model: "hermes-agent", messages: [{ role: "user", content: "hi there" }] })
    expect(completion.choices[0]?.message.content).toBe("Hello from the container")

    const entry = await control.journal.expectRequest({ operation: "chat.completions", text: "hi there" })
    expect(entry.request?.headers["authorization"]).toBe("[REDACTED]")
    expect(entry.modelCalls[0]?.messages).toContainEqual({ role: "user", content: "hi there" })
  })

  it("drives the clock, faults and snapshots of its own namespace", async () => {
    const control = emu.control({ namespace: "tc-state" })
    await control.clock({ freeze: true }) // a frozen clock moves only when told
    expect(await control.clock({ set: 1_900_000_000 })).toEqual({ now: 1_900_000_000 })
    expect(await control.clock({ advance: 60 })).toEqual({ now: 1_900_000_060 })

    await control.armFault({ route: "chat.completions", status: 503, times: 1 })
    const chat = () =>
      fetch(`${emu.getBaseUrl()}/v1/chat/completions`, {
        method: "POST",
        headers: { ...control.headers, "content-type": "application/json", "x-hermes-session-id": "tc-1" },
        body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: "remember me" }] })
      })
    expect((await chat()).status).toBe(503)
    await control.script({ turns: [{ replies: [{ text: "remembered" }] }] })
    expect((await chat()).status).toBe(200)

    const snapshot = await control.saveSnapshot()
    await control.reset()
    const sessions = async () => ((await (await fetch(`${emu.getBaseUrl()}/api/sessions`, { headers: control.headers })).json()) as { data: Array<unknown> }).data
    expect(await sessions()).toEqual([])
    const loaded = await control.loadSnapshot(snapshot)
    expect(loaded["hermes_messages"]).toBe(2)
    expect(await sessions()).toHaveLength(1)
  })
})

describe.skipIf(skip !== undefined)("startedContainer (scoped Effect)", () => {
  it("starts the container for the scope and removes it when the scope closes, even on failure", async () => {
    let id = ""
    const failed = await Effect.runPromiseExit(
      Effect.scoped(
        Effect.gen(function*() {
          const emu = yield* startedContainer(new HermesEmulatorContainer(IMAGE).withApiKey(KEY).withHostNetwork())
          id = emu.getId()
          expect((yield* Effect.promise(() => fetch(`${emu.getBaseUrl()}/health`))).status).toBe(200)
          return yield* Effect.fail("the test body failed")
        })
      )
    )
    expect(failed._tag).toBe("Failure")
    expect(id).not.toBe("")
    const client = await getContainerRuntimeClient()
    expect((await client.container.list()).filter((c) => c.Id === id)).toEqual([])
  }, 60_000)

  it("a start that cannot succeed is a typed ContainerStartFailed", async () => {
    const error = await Effect.runPromise(
      Effect.scoped(startedContainer(new HermesEmulatorContainer("hermetic/no-such-image:0").withApiKey(KEY))).pipe(Effect.flip)
    )
    expect(error._tag).toBe("ContainerStartFailed")
    expect(error.message).toContain("hermetic/no-such-image")
  }, 60_000)
})
