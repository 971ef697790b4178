/** One isolated test as a typical suite writes it (bench/suites.ts; also imported by its generated vitest files). */
export const SUITE_KEY = "bench-key-0123456789abcdef"

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>

export const headersFor = (ns: string) => ({ authorization: `Bearer ${SUITE_KEY}`, "content-type": "application/json", "x-hermetic-namespace": ns })

/** One isolated test: script a reply in `ns`, one chat completion, check its text. */
export const oneTest = async (fetchFn: Fetch, base: string, ns: string, i: number): Promise<void> => {
  const headers = headersFor(ns)
  const text = `reply ${i}`
  const scripted = await fetchFn(`${base}/__admin/script`, {
    method: "POST",
    headers,
    body: JSON.stringify({ turns: [{ replies: [{ text }] }] })
  })
  if (scripted.status !== 200) throw new Error(`script upload answered ${scripted.status}`)
  await scripted.arrayBuffer()
  const res = await fetchFn(`${base}/v1/chat/completions`, {
    method: "POST",
    headers,
    body: JSON.stringify({ model: "hermes-agent", messages: [{ role: "user", content: "hi" }] })
  })
  const json = (await res.json()) as { choices?: Array<{ message?: { content?: string } }> }
  if (json.choices?.[0]?.message?.content !== text) throw new Error(`test ${i}: unexpected answer ${JSON.stringify(json)}`)
}

