/**
 * A line chart with optional min–max whiskers, on a linear or log x axis and a linear or log y
 * axis: the benchmarks' scale curves (throughput against stored runs) and speed curves
 * (scenarios per second against workers).
 */
import { decadeTicks, esc, niceTicks, shortNumber, svgDocument, text } from "./Svg.js"

export interface Point {
  readonly x: number
  readonly y: number
  readonly min?: number
  readonly max?: number
  readonly label?: string
}

export interface Series {
  readonly name: string
  readonly points: ReadonlyArray<Point>
}

export interface ChartOptions {
  readonly title: string
  readonly xLabel: string
  readonly yLabel: string
  readonly logX?: boolean
  readonly logY?: boolean
  readonly subtitle?: string
}

const PALETTE = ["#1f6fb2", "#d9822b", "#2e9e4f", "#8e44ad", "#c0392b", "#16a085"]

export const lineChart = (series: ReadonlyArray<Series>, o: ChartOptions): string => {
  const right = 30 + Math.max(...series.map((s) => s.name.length), 8) * 6.6
  const width = Math.ceil(470 + right)
  const height = 360
  const left = 70
  const top = o.subtitle !== undefined ? 58 : 42
  const bottom = 50
  const plotW = width - left - right
  const plotH = height - top - bottom
  const all = series.flatMap((s) => s.points)
  const xs = all.map((p) => p.x)
  const ys = all.flatMap((p) => [p.y, p.max ?? p.y, p.min ?? p.y])
  const xTicks = o.logX ? decadeTicks(Math.min(...xs), Math.max(...xs)) : niceTicks(Math.max(...xs))
  const yTicks = o.logY ? decadeTicks(Math.min(...ys), Math.max(...ys)) : niceTicks(Math.max(...ys))
  const [x0, x1] = [xTicks[0] ?? 0, xTicks.at(-1) ?? 1]
  const [y0, y1] = [yTicks[0] ?? 0, yTicks.at(-1) ?? 1]
  const scale = (v: number, a: number, b: number, log: boolean | undefined) => (log ? (Math.log10(v) - Math.log10(a)) / (Math.log10(b) - Math.log10(a)) : (v - a) / (b - a || 1))
  const px = (v: number) => left + scale(v, x0, x1, o.logX) * plotW
  const py = (v: number) => top + plotH - scale(v, y0, y1, o.logY) * plotH
  const body: Array<string> = [text(10, 20, o.title, 'font-size="14" font-weight="bold"')]
  if (o.subtitle !== undefined) body.push(text(10, 38, o.subtitle, 'font-size="11" fill="#555"'))
  for (const t of yTicks) {
    body.push(`<line x1="${left}" x2="${left + plotW}" y1="${py(t).toFixed(1)}" y2="${py(t).toFixed(1)}" stroke="#e3e3e3"/>`)
    body.push(text(left - 6, py(t) + 4, shortNumber(t), 'text-anchor="end" font-size="11"'))
  }
  for (const t of xTicks) body.push(text(px(t), top + plotH + 16, shortNumber(t), 'text-anchor="middle" font-size="11"'))
  body.push(`<rect x="${left}" y="${top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`)
  body.push(text(left + plotW / 2, height - 12, o.xLabel, 'text-anchor="middle" font-size="12"'))
  body.push(text(16, top + plotH / 2, o.yLabel, `text-anchor="middle" font-size="12" transform="rotate(-90 16 ${top + plotH / 2})"`))
  series.forEach((s, k) => {
    const colour = PALETTE[k % PALETTE.length] ?? "#000"
    const points = [...s.points].sort((a, b) => a.x - b.x)
    body.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(" ")}"/>`)
    for (const p of points) {
      if (p.min !== undefined && p.max !== undefined) {
        body.push(`<line x1="${px(p.x).toFixed(1)}" x2="${px(p.x).toFixed(1)}" y1="${py(p.min).toFixed(1)}" y2="${py(p.max).toFixed(1)}" stroke="${colour}" stroke-width="1.5"/>`)
      }
      body.push(`<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="3.5" fill="${colour}"><title>${esc(`${s.name}: ${p.label ?? shortNumber(p.y)} at ${shortNumber(p.x)}`)}</title></circle>`)
      if (p.label !== undefined) body.push(text(px(p.x) + 6, py(p.y) - 6, p.label, `font-size="10" fill="${colour}"`))
    }
    const ly = top + 12 + k * 18
    body.push(`<line x1="${left + plotW + 12}" x2="${left + plotW + 32}" y1="${ly - 4}" y2="${ly - 4}" stroke="${colour}" stroke-width="2"/>`)
    body.push(text(left + plotW + 38, ly, s.name, 'font-size="11"'))
  })
  return svgDocument(width, height, body, o.title)
}
