/**
 * Images in the messages a model call sends (NonVisionImages.ts): the oracle's scripted model has
 * no vision, so 0.19.0 (`_prepare_messages_for_non_vision_model`) replaces each message's image
 * parts with vision_analyze notes; on the hermetic gateway every http(s) image is refused before
 * any download (observed live: scenarios/model-calls-history-merge-edges.json).
 */
import { describe, expect, it } from "vitest"
import { apiMessages } from "../../src/agent/ApiMessages.js"
import { imagesAsText } from "../../src/agent/NonVisionImages.js"

const image = (url: string) => ({ type: "image_url", image_url: { url } })
const refused = (who: string, url: string) =>
  `[The ${who} attached an image. Here's what it contains:\nThere was a problem with the request and the image could not be analyzed. Error: blocked: unsafe or private URL]\n[If you need a closer look, use vision_analyze with image_url: ${url}]`

describe("imagesAsText", () => {
  it("leaves the messages alone when none carries an image part", () => {
    const messages = [{ role: "user", content: [{ type: "text", text: "only text" }] }, { role: "assistant", content: "a" }]
    expect(imagesAsText(messages)).toBe(messages)
  })

  it("puts the notes first, then the stripped texts joined by a newline; the role names who attached it", () => {
    const out = imagesAsText([
      { role: "user", content: [{ type: "text", text: " look " }, image("http://169.254.169.254/a.png"), "  raw  ", { type: "input_text", text: "more" }] },
      { role: "assistant", content: [image("http://169.254.169.254/b.png")] },
      { role: "tool", tool_call_id: "c", content: [image("http://169.254.169.254/c.png"), { type: "text", text: "   " }] },
      { role: "user", content: "plain" }
    ])
    expect(out.map((m) => m["content"])).toEqual([
      `${refused("user", "http://169.254.169.254/a.png")}\n\nlook\nraw\nmore`,
      refused("assistant", "http://169.254.169.254/b.png"),
      refused("tool result", "http://169.254.169.254/c.png"),
      "plain"
    ])
    expect(out[2]).toMatchObject({ role: "tool", tool_call_id: "c" })
  })

  it("a URL already described keeps its first note, whoever attaches it again; an image without a URL gets its own note", () => {
    const url = "http://169.254.169.254/same.png"
    const out = imagesAsText([
      { role: "assistant", content: [image(url)] },
      { role: "user", content: [image(url), { type: "image_url", image_url: { url: "" } }, { type: "input_image", image_url: "http://169.254.169.254/d.png" }] }
    ])
    expect(out[1]?.["content"]).toBe(
      `${refused("assistant", url)}\n\n[An image was attached but no image source was available.]\n\n${refused("user", "http://169.254.169.254/d.png")}`
    )
  })

  it("an image part without a URL gets the no-source note; parts that are neither text nor dict are skipped", () => {
    expect(imagesAsText([{ role: "user", content: [image("http://169.254.169.254/e.png")] }, { role: "user", content: [{ type: "image_url" }, 7] }])[1]?.["content"]).toBe(
      "[An image was attached but no image source was available.]"
    )
  })

  it("apiMessages sends the notes in place of the image parts; the transcript keeps its parts", () => {
    const transcript = [{ role: "user", content: [{ type: "text", text: "caption" }, image("https://example.com/x.png")] }]
    expect(apiMessages(transcript, undefined)[1]).toEqual({ role: "user", content: `${refused("user", "https://example.com/x.png")}\n\ncaption` })
    expect(Array.isArray(transcript[0]?.content)).toBe(true)
  })
})
