/** A side port on each bench server that reports the process's own CPU time and memory. */
import * as http from "node:http"
import type { AddressInfo } from "node:net"

export const startControl = (): Promise<number> =>
  new Promise((resolve) => {
    const server = http.createServer((_req, res) => {
      const cpu = process.cpuUsage()
      res.end(JSON.stringify({ cpuMicros: cpu.user + cpu.system, rss: process.memoryUsage().rss }))
    })
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))
  })
