/**
 * A fetch Response read into a WireResponse. An SSE body is read frame by frame until the stream
 * ends, `maxFrames` frames have arrived, or the deadline passes (a held run never ends its stream
 * on its own); how the read stopped is recorded, never hidden.
 */
import { rawHeadOf } from "../rawHttp/rawFetch.js"
import type { ResponseBody, WireResponse } from "./Exchange.js"
import { splitSseFrames } from "./SseFrames.js"

export interface SseReadLimits {
  readonly maxFrames?: number
  readonly deadlineMs: number
}

const isJsonType = (contentType: string) => /^application\/([\w.+-]*\+)?json\b/i.test(contentType)

const readSseBody = async (res: Response, limits: SseReadLimits): Promise<ResponseBody> => {
  const reader = res.body?.getReader()
  if (reader === undefined) return { kind: "sse", text: "", complete: true, stoppedBy: "end" }
  const decoder = new TextDecoder()
  let text = ""
  let stoppedBy: "end" | "max-frames" | "deadline" | "disconnect" = "end"
  let timer: NodeJS.Timeout | undefined
  const started = performance.now()
  // when each frame's closing blank line arrived: what a reader of the evidence needs to see pacing
  const frameMs: Array<number> = []
  const deadline = new Promise<"deadline">((resolve) => {
    timer = setTimeout(() => resolve("deadline"), limits.deadlineMs)
  })
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), deadline])
      if (next === "deadline") {
        stoppedBy = "deadline"
        break
      }
      if (next.done) break
      text += decoder.decode(next.value, { stream: true })
      const unified = text.replace(/\r\n?/g, "\n")
      const closedNow = splitSseFrames(unified).length - (unified.endsWith("\n\n") ? 0 : 1)
      while (frameMs.length < closedNow) frameMs.push(Math.round((performance.now() - started) * 10) / 10)
      if (limits.maxFrames !== undefined) {
        const frames = splitSseFrames(text)
        // a frame counts once its terminating blank line has arrived
        const closed = text.endsWith("\n\n") ? frames.length : frames.length - 1
        if (closed >= limits.maxFrames) {
          text = frames.slice(0, limits.maxFrames).map((f) => `${f}\n\n`).join("")
          stoppedBy = "max-frames"
          break
        }
      }
    }
  } catch {
    stoppedBy = "disconnect"
  } finally {
    clearTimeout(timer)
    if (stoppedBy !== "end") await reader.cancel().catch(() => {})
  }
  const frames = splitSseFrames(text).length
  // the last frame of a stream that ended without a closing blank line arrived at its end
  while (stoppedBy === "end" && frameMs.length < frames) frameMs.push(Math.round((performance.now() - started) * 10) / 10)
  return { kind: "sse", text, complete: stoppedBy === "end", stoppedBy, frameMs: frameMs.slice(0, frames) }
}

export const readResponse = async (res: Response, limits: SseReadLimits): Promise<WireResponse> => {
  const headers: Array<readonly [string, string]> = []
  res.headers.forEach((value, name) => headers.push([name.toLowerCase(), value]))
  const contentType = res.headers.get("content-type") ?? ""
  let body: ResponseBody
  if (contentType.startsWith("text/event-stream")) body = await readSseBody(res, limits)
  else {
    const text = await res.text()
    if (text === "") body = { kind: "empty" }
    else if (isJsonType(contentType)) body = { kind: "json", text }
    else body = { kind: "text", text }
  }
  const head = rawHeadOf(res)
  return { status: res.status, headers, body, ...(head !== undefined ? { head: { statusLine: head.statusLine, headerNames: head.headerNames, framing: head.framing } } : {}) }
}
