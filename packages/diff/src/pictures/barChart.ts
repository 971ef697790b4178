/** Horizontal grouped bars on a log axis: one group per measured request, one bar per server (the emulator against the real gateway). */
import { decadeTicks, esc, shortNumber, svgDocument, text } from "./Svg.js"

export interface BarGroup {
  readonly name: string
  readonly values: ReadonlyArray<{ readonly series: string; readonly value: number; readonly min?: number; readonly max?: number }>
}

const PALETTE = ["#1f6fb2", "#d9822b", "#2e9e4f", "#8e44ad"]

export const barChart = (groups: ReadonlyArray<BarGroup>, o: { readonly title: string; readonly subtitle?: string; readonly xLabel: string }): string => {
  const series = [...new Set(groups.flatMap((g) => g.values.map((v) => v.series)))]
  const barH = 12
  const groupH = series.length * (barH + 2) + 10
  const labelW = 12 + Math.max(...groups.map((g) => g.name.length), 8) * 6.6
  const top = o.subtitle !== undefined ? 62 : 46
  const plotW = 420
  const width = Math.ceil(labelW + plotW + 40)
  const plotH = groups.length * groupH
  const height = top + plotH + 50 + series.length * 16
  const values = groups.flatMap((g) => g.values.flatMap((v) => [v.value, v.max ?? v.value, v.min ?? v.value])).filter((v) => v > 0)
  const ticks = decadeTicks(Math.min(...values), Math.max(...values))
  const [lo, hi] = [Math.log10(ticks[0] ?? 1), Math.log10(ticks.at(-1) ?? 10)]
  const px = (v: number) => labelW + ((Math.log10(Math.max(v, ticks[0] ?? 1)) - lo) / (hi - lo || 1)) * plotW
  const body: Array<string> = [text(10, 20, o.title, 'font-size="14" font-weight="bold"')]
  if (o.subtitle !== undefined) body.push(text(10, 38, o.subtitle, 'font-size="11" fill="#555"'))
  for (const t of ticks) {
    body.push(`<line x1="${px(t).toFixed(1)}" x2="${px(t).toFixed(1)}" y1="${top}" y2="${top + plotH}" stroke="#e3e3e3"/>`)
    body.push(text(px(t), top + plotH + 14, shortNumber(t), 'text-anchor="middle" font-size="11"'))
  }
  body.push(text(labelW + plotW / 2, top + plotH + 32, o.xLabel, 'text-anchor="middle" font-size="12"'))
  groups.forEach((g, i) => {
    const y = top + i * groupH + 5
    body.push(text(labelW - 8, y + (series.length * (barH + 2)) / 2 + 4, g.name, 'text-anchor="end" font-size="11"'))
    for (const v of g.values) {
      const k = series.indexOf(v.series)
      const colour = PALETTE[k % PALETTE.length] ?? "#000"
      const by = y + k * (barH + 2)
      body.push(`<rect x="${labelW}" y="${by}" width="${Math.max(px(v.value) - labelW, 1).toFixed(1)}" height="${barH}" fill="${colour}"><title>${esc(`${g.name} ${v.series}: ${shortNumber(v.value)}`)}</title></rect>`)
      if (v.min !== undefined && v.max !== undefined) body.push(`<line x1="${px(v.min).toFixed(1)}" x2="${px(v.max).toFixed(1)}" y1="${by + barH / 2}" y2="${by + barH / 2}" stroke="#333"/>`)
      body.push(text(px(v.value) + 4, by + barH - 2, shortNumber(v.value), 'font-size="10"'))
    }
  })
  series.forEach((s, k) => {
    const y = top + plotH + 44 + k * 16
    body.push(`<rect x="${labelW}" y="${y}" width="12" height="12" fill="${PALETTE[k % PALETTE.length] ?? "#000"}"/>`, text(labelW + 18, y + 10, s, 'font-size="11"'))
  })
  return svgDocument(width, height, body, o.title)
}
