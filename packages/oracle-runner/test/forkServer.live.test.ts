/**
 * Gateways forked from a fork server (ForkServer.ts, ForkLauncher.ts): each one its own process
 * group, HERMES_HOME, port and faked clock (libfaketime reads FAKETIME_TIMESTAMP_FILE from each
 * child's environment); a scripted chat goes through; a restart forks again on the same home; and
 * closing the scope leaves no gateway, no server and no temp directory. Live (HERMETIC_LIVE=1).
 */
import { existsSync, readFileSync } from "node:fs"
import net from "node:net"
import { Effect, Exit, Scope } from "effect"
import { describe, expect, it } from "vitest"
import type { Gateway } from "../src/gateway/Gateway.js"
import { scopedGateway, scopedGatewayForkServer } from "../src/gateway/GatewayResource.js"

const live = process.env["HERMETIC_LIVE"] === "1"
if (!live) console.log("[skip] fork server live test: set HERMETIC_LIVE=1 to start the real Hermes 0.19.0 gateway")

const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z"
  } catch {
    return false
  }
}

/**
 * Sends a declared over-limit body (10,000,001 bytes, the API server's limit plus one) and reports how
 * much of it the gateway took: a gateway whose asyncio works answers 413 at once and then keeps
 * reading to the end (aiohttp's lingering close); one whose preload broke asyncio.timeout resets the
 * upload after the first chunks.
 */
const overLimitUpload = (gw: Gateway): Promise<{ status: string; written: number; total: number; reset: boolean }> =>
  new Promise((resolve) => {
    const url = new URL(gw.baseUrl)
    const total = 10_000_001
    const chunk = Buffer.alloc(65536, 0x61)
    let written = 0
    let answer = ""
    let reset = false
    const socket = net.connect(Number(url.port), url.hostname)
    const done = () => {
      socket.destroy()
      resolve({ status: answer.split("\r\n")[0] ?? "", written, total, reset })
    }
    const pump = () => {
      while (written < total) {
        const n = Math.min(chunk.length, total - written)
        written += n
        if (!socket.write(chunk.subarray(0, n))) return void socket.once("drain", pump)
      }
      // all of it was taken: give the answer a moment to arrive if it has not yet
      setTimeout(done, answer ? 0 : 2000)
    }
    socket.on("connect", () => {
      socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`)
      pump()
    })
    socket.on("data", (d) => void (answer += d.toString("latin1")))
    socket.on("error", () => void (reset = true))
    socket.on("close", () => {
      if (written < total) reset = true
      done()
    })
  })

/** The year the gateway's own clock says, from its HTTP Date header (aiohttp reads time.time()). */
const gatewayYear = async (gw: Gateway): Promise<number> => new Date((await fetch(`${gw.baseUrl}/health`)).headers.get("date") ?? "").getUTCFullYear()

describe.skipIf(!live)("gateways forked from a fork server", () => {
  it("are separate gateways with their own clocks, restart by forking again, and leave nothing behind", async () => {
    const scope = await Effect.runPromise(Scope.make())
    const run = <A, E>(e: Effect.Effect<A, E, Scope.Scope>) => Effect.runPromise(Scope.extend(e, scope))
    let pids: Array<number> = []
    let roots: Array<string> = []
    let serverDir = ""
    try {
      const options = { pin: "0.19.0", launcher: "process" as const, clock: {}, killOnRelease: true, progress: (l: string) => console.log(l) }
      const server = await run(scopedGatewayForkServer(options))
      expect(server.preloaded).toBeGreaterThan(100)
      serverDir = server.cwd
      if (server.pid !== undefined) pids.push(server.pid)
      const [a, b] = await run(Effect.all([scopedGateway({ ...options, forkServer: server }), scopedGateway({ ...options, forkServer: server })]))
      if (a === undefined || b === undefined) throw new Error("two gateways were asked for")
      roots = [a.tempRoot, b.tempRoot]
      expect(a.hermesHome).not.toBe(b.hermesHome)
      expect(a.baseUrl).not.toBe(b.baseUrl)
      const forked = [a.processGroup(), b.processGroup()].filter((p): p is number => p !== null)
      expect(forked).toHaveLength(2)
      pids.push(...forked)
      // each child's own process group, and its own state.db under its own home
      expect(existsSync(`${a.hermesHome}/state.db`) && existsSync(`${b.hermesHome}/state.db`)).toBe(true)

      await Effect.runPromise(a.clock?.set(Date.UTC(2020, 0, 1) / 1000) ?? Effect.fail(new Error("no clock")))
      expect(await gatewayYear(a)).toBe(2020)
      expect(await gatewayYear(b)).toBe(new Date().getUTCFullYear())

      b.script({ turns: [{ replies: [{ text: "forked hello" }] }] })
      const chat = await fetch(`${b.baseUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${b.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: "hi" }] })
      })
      expect(chat.status).toBe(200)
      expect(JSON.stringify(await chat.json())).toContain("forked hello")

      // the preload keeps asyncio whole: a forked gateway lingers on an over-limit upload as a cold one does
      expect(await overLimitUpload(b)).toEqual({ status: "HTTP/1.1 413 Request Entity Too Large", written: 10_000_001, total: 10_000_001, reset: false })

      const before = b.processGroup()
      await Effect.runPromise(b.restart)
      expect(b.processGroup()).not.toBe(before)
      expect((await fetch(`${b.baseUrl}/health`)).status).toBe(200)
      pids.push(b.processGroup() as number)
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
    expect(pids.length, "the server, two gateways and the restarted one were seen").toBe(4)
    expect(pids.filter(alive), "server or gateways still running").toEqual([])
    expect([...roots, serverDir].filter((r) => existsSync(r)), "temp directories left").toEqual([])
  }, 600_000)
})
