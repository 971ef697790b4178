/** A side port on each bench server that reports the process's own CPU time and memory. */
import * as http from "node:http"
import type { AddressInfo } from "node:net"

export const startControl = (): Promise<number> =>
  new Promise((resolve) => {
    const server = http.createServer((req, res) => {
      // `?gc=1` collects garbage first (when node runs with --expose-gc), so RSS shows what is held
      const gc = (globalThis as { gc?: () => void }).gc
      if (req.url?.includes("gc=1") === true && gc !== undefined) {
        gc()
        gc()
      }
      const cpu = process.cpuUsage()
      const mem = process.memoryUsage()
      res.end(JSON.stringify({ cpuMicros: cpu.user + cpu.system, rss: mem.rss, heapUsed: mem.heapUsed, external: mem.external }))
    })
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))
  })
