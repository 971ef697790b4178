/** One recorded HTTP exchange with the real gateway, as evidence. The API key is never recorded. */
export type Exchange = {
  readonly label: string
  readonly method: string
  readonly path: string
  readonly requestHeaders: Readonly<Record<string, string>>
  readonly requestBody?: string
  readonly status: number
  readonly responseHeaders: ReadonlyArray<readonly [string, string]>
  readonly responseBody: string
  readonly ms: number
  /** Model calls the fake model saw during this exchange (main/housekeeping), and probes. */
  readonly modelCalls?: string
  readonly note?: string
}

export type Recorder = {
  send(
    label: string,
    method: string,
    path: string,
    opts?: { readonly auth?: "key" | "none" | "wrong"; readonly body?: unknown; readonly rawBody?: string; readonly headers?: Readonly<Record<string, string>>; readonly note?: string }
  ): Promise<Exchange>
  readonly exchanges: ReadonlyArray<Exchange>
}

const headerPairs = (h: Headers): Array<readonly [string, string]> => {
  const out: Array<readonly [string, string]> = []
  h.forEach((v, k) => out.push([k, v]))
  return out
}

export const makeRecorder = (
  baseUrl: string,
  apiKey: string,
  journalSize: () => number,
  describeCalls: (from: number) => string
): Recorder => {
  const exchanges: Array<Exchange> = []
  return {
    exchanges,
    send: async (label, method, path, opts = {}) => {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) }
      const shown: Record<string, string> = { ...(opts.headers ?? {}) }
      const auth = opts.auth ?? "key"
      if (auth === "key") {
        headers["authorization"] = `Bearer ${apiKey}`
        shown["authorization"] = "Bearer <API_SERVER_KEY>"
      } else if (auth === "wrong") {
        headers["authorization"] = "Bearer wrong-key-0123456789abcdef"
        shown["authorization"] = "Bearer wrong-key-0123456789abcdef"
      }
      let body: string | undefined
      if (opts.rawBody !== undefined) body = opts.rawBody
      else if (opts.body !== undefined) body = JSON.stringify(opts.body)
      if (body !== undefined) {
        headers["content-type"] ??= "application/json"
        shown["content-type"] ??= "application/json"
      }
      const before = journalSize()
      const t0 = Date.now()
      const r = await fetch(`${baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) })
      const text = (await r.text()).split(apiKey).join("<API_SERVER_KEY>")
      const ms = Date.now() - t0
      const ex: Exchange = {
        label,
        method,
        path,
        requestHeaders: shown,
        ...(body !== undefined ? { requestBody: body } : {}),
        status: r.status,
        responseHeaders: headerPairs(r.headers),
        responseBody: text,
        ms,
        modelCalls: describeCalls(before),
        ...(opts.note ? { note: opts.note } : {})
      }
      exchanges.push(ex)
      return ex
    }
  }
}
