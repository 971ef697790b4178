import autocannon from "autocannon"
const [port, runs] = process.argv.slice(2).map(Number)
const id = (i) => "run_" + i.toString(16).padStart(32, "0")
const r = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 4, duration: 8, requests: [{ method: "GET", path: "/", headers: { authorization: "Bearer " + (process.env.KEY ?? "bench-key-0123456789abcdef") }, setupRequest: (req) => ({ ...req, path: `/v1/runs/${id(Math.floor(Math.random() * runs))}` }) }] })
console.log(JSON.stringify({ total: r.requests.total, non2xx: r.non2xx }))
