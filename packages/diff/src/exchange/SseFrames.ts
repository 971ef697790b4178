/**
 * Server-sent events text split into frames (blank-line separated, as the SSE spec says). A frame
 * carries its `event`, `id`, `retry`, comment lines and the joined `data` lines.
 */
export interface SseFrame {
  readonly event?: string
  readonly id?: string
  readonly retry?: string
  readonly comment?: string
  readonly data?: string
}

export const splitSseFrames = (text: string): Array<string> =>
  text
    .replace(/\r\n?/g, "\n")
    .split("\n\n")
    .filter((f) => f.trim() !== "")

export const parseSseFrame = (raw: string): SseFrame => {
  const data: Array<string> = []
  const comments: Array<string> = []
  const fields: { event?: string; id?: string; retry?: string } = {}
  for (const line of raw.split("\n")) {
    if (line.startsWith(":")) {
      comments.push(line.slice(1).trimStart())
      continue
    }
    const colon = line.indexOf(":")
    const name = colon < 0 ? line : line.slice(0, colon)
    let value = colon < 0 ? "" : line.slice(colon + 1)
    if (value.startsWith(" ")) value = value.slice(1)
    if (name === "data") data.push(value)
    else if (name === "event" || name === "id" || name === "retry") fields[name] = value
  }
  return {
    ...fields,
    ...(comments.length > 0 ? { comment: comments.join("\n") } : {}),
    ...(data.length > 0 ? { data: data.join("\n") } : {})
  }
}

export const parseSse = (text: string): Array<SseFrame> => splitSseFrames(text).map(parseSseFrame)
