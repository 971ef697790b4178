/**
 * A fuzz case and its raw answer as the differ's Exchange: the request described (bytes shown
 * one-to-one by showBytes, the key as `{{KEY}}`), the answer with its head as it came. From here a
 * fuzz case is normalized, diffed and judged like any scenario's exchange.
 */
import type { Exchange, ResponseBody, WireRequest } from "../exchange/Exchange.js"
import type { RawAnswer } from "../rawHttp/sendRaw.js"
import { describeBody, type FuzzCase, showBytes } from "./FuzzCase.js"

const isJsonType = (contentType: string) => /^application\/([\w.+-]*\+)?json\b/i.test(contentType)

const authOf = (c: FuzzCase): WireRequest["auth"] => {
  const values = c.headers.filter(([name]) => name.toLowerCase() === "authorization").map(([, v]) => Buffer.from(v).toString("latin1"))
  return values.length === 0 ? "none" : values.length === 1 && values[0] === "Bearer {{KEY}}" ? "key" : "wrong"
}

export const caseRequest = (c: FuzzCase): WireRequest => {
  const headers: Record<string, string> = {}
  // a repeated header is kept as the server sees it listed: values joined in order
  for (const [name, value] of c.headers) {
    const k = name.toLowerCase()
    headers[k] = headers[k] === undefined ? showBytes(value) : `${headers[k]}, ${showBytes(value)}`
  }
  // bytes as shown (JSON stays JSON for the normalizer); a declared or streamed body by its description
  const body = c.body._tag === "bytes" ? showBytes(c.body.bytes) : c.body._tag === "none" ? undefined : `(${describeBody(c.body)})`
  return { method: c.method, path: showBytes(c.target), headers, auth: authOf(c), ...(body !== undefined ? { body } : {}) }
}

const answerBody = (a: RawAnswer): ResponseBody => {
  if (a.body === "") return { kind: "empty" }
  const contentType = a.headers.find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? ""
  return isJsonType(contentType) ? { kind: "json", text: a.body } : { kind: "text", text: a.body }
}

export const caseExchange = (c: FuzzCase, a: RawAnswer): Exchange => {
  const request = caseRequest(c)
  if (a.statusLine === "") return { request, transportError: a.transport ?? "closed" }
  return {
    request,
    response: {
      status: a.status,
      headers: a.headers.map(([k, v]) => [k.toLowerCase(), v] as const),
      body: answerBody(a),
      head: { statusLine: a.statusLine, headerNames: a.headers.map(([k]) => k), framing: a.framing }
    }
  }
}
