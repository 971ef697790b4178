// One request at a time over HTTP to the built emulator in a child process (with --expose-gc);
// the child's side port collects the young generation twice and answers its old-space size.
// SERVER (a bench child script) and SARGS (its arguments) replace the emulator.
//   node --import tsx bench/tools/http-retention.ts POST /v1/runs '{"input":"hi"}'
import * as http from "node:http"
import { startChild } from "../child.js"
import { spread } from "../stats.js"
const [method, path, body] = process.argv.slice(2)
if (method === undefined || path === undefined) throw new Error("usage: http-retention.ts METHOD PATH [BODY]")
const child = await startChild(process.env["SERVER"] ?? "bench/tools/http-retention-server.ts", process.env["SARGS"] ? process.env["SARGS"].split(" ") : [], { nodeArgs: ["--expose-gc"] })
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const sideAgent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const call = (port: number, m: string, p: string, b: string | undefined, a: http.Agent) => new Promise<string>((resolve, reject) => {
  const r = http.request({ host: "127.0.0.1", port, method: m, path: p, agent: a, headers: { authorization: "Bearer bench-key-0123456789abcdef", "content-type": "application/json", ...(b === undefined ? {} : { "content-length": Buffer.byteLength(b) }) } }, (res) => { let s = ""; res.on("data", (c) => (s += c)); res.on("end", () => resolve(s)) })
  r.on("error", reject); r.end(b)
})
for (let i = 0; i < 300; i++) await call(child.port, method, path, body, agent)
const deltas: number[] = []
for (let i = 0; i < 30; i++) {
  const o0 = Number(await call(child.controlPort, "GET", "/", undefined, sideAgent))
  for (let k = 0; k < 4; k++) await call(child.port, method, path, body, agent)
  await new Promise((r) => setTimeout(r, 5))
  deltas.push((Number(await call(child.controlPort, "GET", "/", undefined, sideAgent)) - o0) / 4)
}
const s = spread(deltas)
console.log(`${method} ${path}: old-space growth per request over HTTP: median ${s.median} B (min ${s.min}, max ${s.max})`)
await child.stop(); agent.destroy(); sideAgent.destroy()
