/**
 * Just enough SVG to draw the report's pictures without a browser: text escaping, a document
 * wrapper with a white background and system fonts, and a "nice" axis scale. Every picture is a
 * plain string a reviewer's Markdown viewer shows inline.
 */
export const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

export const svgDocument = (width: number, height: number, body: ReadonlyArray<string>, title: string): string =>
  [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...body,
    "</svg>",
    ""
  ].join("\n")

export const text = (x: number, y: number, s: string, attrs = "") => `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${attrs}>${esc(s)}</text>`

/** Ticks for a linear axis from 0 to at least `max`: about `count` round steps (1, 2, 5 × 10^k). */
export const niceTicks = (max: number, count = 5): Array<number> => {
  if (!(max > 0)) return [0, 1]
  const raw = max / count
  const mag = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag
  const ticks: Array<number> = []
  for (let v = 0; v < max + step * 0.999; v += step) ticks.push(Number(v.toPrecision(12)))
  return ticks
}

/** Decades 10^a … 10^b covering [min, max] for a log axis. */
export const decadeTicks = (min: number, max: number): Array<number> => {
  const lo = Math.floor(Math.log10(Math.max(min, 1e-9)))
  const hi = Math.ceil(Math.log10(Math.max(max, 1e-9)))
  return Array.from({ length: Math.max(hi - lo, 1) + 1 }, (_, k) => 10 ** (lo + k))
}

export const shortNumber = (n: number): string =>
  n >= 1e6 ? `${Number((n / 1e6).toPrecision(3))}M` : n >= 1e3 ? `${Number((n / 1e3).toPrecision(3))}k` : `${Number(n.toPrecision(3))}`
