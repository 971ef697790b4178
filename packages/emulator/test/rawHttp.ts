/** One request over node:http, keeping the response headers in wire order (fetch sorts them). */
import { request as httpRequest } from "node:http"

export interface RawResponse {
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: string
}

export const rawRequest = (
  baseUrl: string,
  method: string,
  path: string,
  headers: Readonly<Record<string, string>> = {},
  body?: string
): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, baseUrl), { method, headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const pairs: Array<readonly [string, string]> = []
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i] ?? "", res.rawHeaders[i + 1] ?? ""])
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks).toString("utf8") })
      })
      res.on("error", reject)
    })
    req.on("error", reject)
    if (body !== undefined) req.write(body)
    req.end()
  })

/** Headers both servers add on their own (transport, date, server banner) drop out of comparisons. */
const TRANSPORT = new Set(["date", "server", "connection", "keep-alive", "transfer-encoding"])

export const semanticHeaders = (headers: ReadonlyArray<readonly [string, string]>): Array<string> =>
  headers.filter(([k]) => !TRANSPORT.has(k.toLowerCase())).map(([k, v]) => `${k.toLowerCase()}: ${v}`)
