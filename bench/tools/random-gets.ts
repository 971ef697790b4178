// 8 s of GET /v1/runs/<id> over 4 connections, each id drawn at random from the RUNS runs
// bench/servers/scaled-emulator.ts seeded; prints
// {"total":…,"non2xx":…}. prof.sh and threads.sh drive the CLI with it.
//   node --import tsx bench/tools/random-gets.ts PORT RUNS
import autocannon from "autocannon"
import { SCALE_KEY, scaleRunId } from "../servers/scaleIds.js"

const [port, runs] = process.argv.slice(2).map(Number)
if (port === undefined || runs === undefined || !(runs > 0)) throw new Error("usage: random-gets.ts PORT RUNS")
const r = await autocannon({
  url: `http://127.0.0.1:${port}`,
  connections: 4,
  duration: 8,
  requests: [{
    method: "GET",
    path: "/",
    headers: { authorization: "Bearer " + SCALE_KEY },
    setupRequest: (req) => ({ ...req, path: `/v1/runs/${scaleRunId(Math.floor(Math.random() * runs))}` })
  }]
})
console.log(JSON.stringify({ total: r.requests.total, non2xx: r.non2xx }))
