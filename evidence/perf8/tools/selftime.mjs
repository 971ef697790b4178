import { readFileSync, readdirSync } from "node:fs"
const load = (dir, requests) => {
  const f = readdirSync(dir).find((x) => x.endsWith(".cpuprofile"))
  const p = JSON.parse(readFileSync(`${dir}/${f}`, "utf8"))
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const self = new Map()
  const dt = p.timeDeltas
  for (let i = 0; i < p.samples.length; i++) {
    const n = byId.get(p.samples[i]); const d = dt[i] ?? 0
    const cf = n.callFrame
    const key = `${cf.functionName || "(anon)"} ${cf.url.split("/").pop()}:${cf.lineNumber}`
    self.set(key, (self.get(key) ?? 0) + d)
  }
  return new Map([...self].map(([k, v]) => [k, v / requests]))
}
const a = load("/tmp/prof-1k", Number(process.argv[2])), b = load("/tmp/prof-1m", Number(process.argv[3]))
const keys = new Set([...a.keys(), ...b.keys()])
const rows = [...keys].map((k) => [k, a.get(k) ?? 0, b.get(k) ?? 0]).sort((x, y) => Math.abs(y[2] - y[1]) - Math.abs(x[2] - x[1]))
const tot = (m) => [...m.values()].reduce((s, v) => s + v, 0)
console.log(`total µs/request (incl idle): 1k ${tot(a).toFixed(1)}  1M ${tot(b).toFixed(1)}`)
for (const [k, x, y] of rows.slice(0, 25)) console.log(`${x.toFixed(2).padStart(7)} ${y.toFixed(2).padStart(7)} ${(y - x).toFixed(2).padStart(7)}  ${k}`)
