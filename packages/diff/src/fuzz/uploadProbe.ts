/**
 * `oracle fuzz --upload-probes`: what a server does with an upload its answer left unread, on the
 * real gateway and the emulator side by side. A client streams chunked zeros (throttled, or as fast
 * as the server reads) to requests answered before their body; the probe records the answer, how
 * much was sent, and when (if at all) the server ended the connection. aiohttp reads and discards
 * such a body for its lingering time (10 s), then closes; the emulator must do the same.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import * as net from "node:net"
import { loadavg } from "node:os"
import { join } from "node:path"
import { type Pin, startEmulator } from "@hermetic/emulator"
import type { FuzzOutcome } from "./fuzzCommand.js"
import { loadOracleRunnerPromise } from "../target/oracleRunner.js"

export interface UploadOutcome {
  readonly statusLine: string
  readonly answerMs: number | undefined
  /** MiB the client had sent when the server ended the connection, or when the probe stopped. */
  readonly sentMiB: number
  /** When the server ended the connection (FIN or reset); undefined: still open when the probe stopped. */
  readonly endedMs: number | undefined
}

const CHUNK = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000), Buffer.from("\r\n")])

/** Chunked zeros after `head`: `perTickBytes` every 100 ms (Infinity: as fast as the server reads), up to `totalBytes`, for `forMs`. */
export const probeUpload = (port: number, head: string, perTickBytes: number, totalBytes: number, forMs: number): Promise<UploadOutcome> =>
  new Promise((resolve) => {
    const started = performance.now()
    const socket = net.connect(port, "127.0.0.1")
    let answer = ""
    let answerMs: number | undefined
    let sent = 0
    let endedMs: number | undefined
    let finished = false
    const finish = () => {
      if (finished) return
      finished = true
      socket.destroy()
      resolve({ statusLine: answer.split("\r\n")[0] ?? "", answerMs, sentMiB: Number((sent / 1048576).toFixed(1)), endedMs })
    }
    const ended = () => {
      endedMs ??= Math.round(performance.now() - started)
      finish()
    }
    socket.on("data", (d) => {
      answerMs ??= Math.round(performance.now() - started)
      answer += d.toString("latin1")
    })
    socket.on("end", ended)
    socket.on("error", ended)
    setTimeout(finish, forMs)
    socket.on("connect", () => {
      socket.write(head)
      const pump = () => {
        let tick = 0
        while (!finished && sent < totalBytes) {
          if (tick >= perTickBytes) return void setTimeout(pump, 100)
          sent += 0x10000
          tick += 0x10000
          if (!socket.write(CHUNK)) return void socket.once("drain", pump)
        }
        if (!finished) socket.write("0\r\n\r\n")
      }
      pump()
    })
  })

interface Probe {
  readonly name: string
  readonly head: (key: string) => string
  readonly perTickBytes: number
  readonly totalBytes: number
}

const chunked = (method: string, path: string, extra = "") => (_key: string) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}Transfer-Encoding: chunked\r\n\r\n`

const PROBES: ReadonlyArray<Probe> = [
  { name: "unknown route (404), 5 MB/s for 14 s", head: chunked("POST", "/nonexistent"), perTickBytes: 500_000, totalBytes: Infinity },
  { name: "runs without a key (401), 5 MB/s", head: chunked("POST", "/v1/runs"), perTickBytes: 500_000, totalBytes: Infinity },
  { name: "unknown route, Connection: close, 5 MB/s", head: chunked("POST", "/nonexistent", "Connection: close\r\n"), perTickBytes: 500_000, totalBytes: Infinity },
  {
    name: "stop of an unknown run (never reads the body), 5 MB/s",
    head: (key) => chunked("POST", "/v1/runs/run_missing/stop", `Authorization: Bearer ${key}\r\n`)(key),
    perTickBytes: 500_000,
    totalBytes: Infinity
  },
  { name: "unknown route, 40 MB as fast as it is read", head: chunked("POST", "/nonexistent"), perTickBytes: Infinity, totalBytes: 40 * 1048576 }
]

/** Same status; the connection ended by both or by neither, and when both, within 1.5 s of each other. */
const alike = (real: UploadOutcome, emu: UploadOutcome): boolean =>
  real.statusLine.split(" ")[1] === emu.statusLine.split(" ")[1] &&
  (real.endedMs === undefined) === (emu.endedMs === undefined) &&
  (real.endedMs === undefined || Math.abs(real.endedMs - (emu.endedMs as number)) <= 1_500)

export const uploadProbes = async (pin: Pin, out: string): Promise<FuzzOutcome> => {
  const load = loadavg().map((l) => Number(l.toFixed(2)))
  const { startGateway } = await loadOracleRunnerPromise("oracle fuzz --upload-probes")
  const gw = await startGateway({ pin, launcher: "process" })
  const emu = await startEmulator({ hermesVersion: pin, apiKey: gw.apiKey, port: 0 })
  const rows: Array<{ readonly probe: string; readonly real: UploadOutcome; readonly emulator: UploadOutcome; readonly alike: boolean }> = []
  try {
    const gwPort = Number(new URL(gw.baseUrl).port)
    for (const p of PROBES) {
      // side by side, so both see the same machine
      const [real, emulator] = await Promise.all([
        probeUpload(gwPort, p.head(gw.apiKey), p.perTickBytes, p.totalBytes, 14_000),
        probeUpload(emu.port, p.head(gw.apiKey), p.perTickBytes, p.totalBytes, 14_000)
      ])
      rows.push({ probe: p.name, real, emulator, alike: alike(real, emulator) })
    }
  } finally {
    await emu.close()
    await gw.stop()
  }
  const cell = (o: UploadOutcome) =>
    `${o.statusLine.replace(/^HTTP\/1\.[01] /, "")} at ${o.answerMs ?? "-"} ms; ${o.sentMiB} MiB sent; ${o.endedMs === undefined ? "connection kept (14 s)" : `ended at ${o.endedMs} ms`}`
  const md = [
    `# Uploads the answer left unread: real Hermes ${pin} gateway vs the emulator`,
    "",
    "`oracle fuzz --upload-probes`: each probe streams chunked zeros to a request answered before its body, on both at once; " +
    `load average at the start ${load.join(", ")}.`,
    "",
    "| probe | real gateway | emulator | alike |",
    "| --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r.probe} | ${cell(r.real)} | ${cell(r.emulator)} | ${r.alike ? "yes" : "**no**"} |`),
    ""
  ].join("\n")
  mkdirSync(out, { recursive: true })
  const written = join(out, `upload-linger-${pin}.json`)
  writeFileSync(written, `${JSON.stringify({ kind: "hermetic-upload-probes", pin, loadAverage: load, rows }, null, 2)}\n`)
  writeFileSync(join(out, `upload-linger-${pin}.md`), md)
  const alikeCount = rows.filter((r) => r.alike).length
  return { exitCode: alikeCount === rows.length ? 0 : 1, text: md, counts: { probes: rows.length, alike: alikeCount, different: rows.length - alikeCount }, written }
}
