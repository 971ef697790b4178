/**
 * Just enough Markdown to HTML for the sections other tools write into REPORT.md (headings,
 * paragraphs, lists, tables, code, bold, links, images), so each shows as a tab of the HTML
 * report without a Markdown library. An image whose SVG is given is inlined (the page stays one file).
 */
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

const inline = (text: string, svgs: ReadonlyMap<string, string>): string => {
  const codes: Array<string> = []
  // code spans first: nothing inside them is Markdown
  let s = text.replace(/`([^`]+)`/g, (_, c: string) => {
    codes.push(`<code>${esc(c)}</code>`)
    return `\u0000${codes.length - 1}\u0000`
  })
  s = esc(s)
    .replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (_, alt: string, src: string) => svgs.get(src) ?? `<img alt="${alt}" src="${src}">`)
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, t: string, href: string) => `<a href="${href}">${t}</a>`)
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
  return s.replace(/\u0000(\d+)\u0000/g, (_, k: string) => codes[Number(k)] ?? "")
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, "|"))

export const markdownHtml = (markdown: string, svgs: ReadonlyMap<string, string> = new Map()): string => {
  const lines = markdown.split("\n")
  const out: Array<string> = []
  let k = 0
  while (k < lines.length) {
    const line = lines[k] as string
    if (line.trim() === "" || /^<!--.*-->$/.test(line.trim())) {
      k++
      continue
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    if (heading !== null) {
      const level = Math.min((heading[1] as string).length + 1, 6)
      out.push(`<h${level}>${inline(heading[2] as string, svgs)}</h${level}>`)
      k++
      continue
    }
    if (line.trim().startsWith("|") && /^\s*\|?\s*:?-{3,}/.test(lines[k + 1] ?? "")) {
      const head = cells(line)
      const align = cells(lines[k + 1] as string).map((c) => (c.endsWith(":") ? (c.startsWith(":") ? "center" : "right") : "left"))
      k += 2
      const rows: Array<Array<string>> = []
      while (k < lines.length && (lines[k] as string).trim().startsWith("|")) rows.push(cells(lines[k++] as string))
      const td = (tag: string, c: string, i: number) => `<${tag} style="text-align:${align[i] ?? "left"}">${inline(c, svgs)}</${tag}>`
      out.push(`<table class="md"><thead><tr>${head.map((c, i) => td("th", c, i)).join("")}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c, i) => td("td", c, i)).join("")}</tr>`).join("")}</tbody></table>`)
      continue
    }
    if (/^\s*[-*]\s+/.test(line)) {
      const items: Array<string> = []
      while (k < lines.length && /^\s*[-*]\s+/.test(lines[k] as string)) items.push(`<li>${inline((lines[k++] as string).replace(/^\s*[-*]\s+/, ""), svgs)}</li>`)
      out.push(`<ul>${items.join("")}</ul>`)
      continue
    }
    if (line.startsWith("```")) {
      const body: Array<string> = []
      k++
      while (k < lines.length && !(lines[k] as string).startsWith("```")) body.push(lines[k++] as string)
      k++
      out.push(`<pre>${esc(body.join("\n"))}</pre>`)
      continue
    }
    const para: Array<string> = []
    while (k < lines.length && (lines[k] as string).trim() !== "" && !/^(#|\||```|\s*[-*]\s)/.test(lines[k] as string)) para.push(lines[k++] as string)
    if (para.length === 0) para.push(lines[k++] as string)
    out.push(`<p>${inline(para.join(" "), svgs)}</p>`)
  }
  return out.join("\n")
}

/** The `<!-- name:start -->…<!-- name:end -->` blocks of a REPORT.md: sections other generators own. */
export const reportSections = (report: string): Array<{ readonly id: string; readonly title: string; readonly markdown: string }> =>
  [...report.matchAll(/<!-- ([a-z0-9-]+):start -->([\s\S]*?)<!-- \1:end -->/g)].map((m) => {
    const markdown = (m[2] as string).trim()
    const title = /^#{1,6}\s+(.*)$/m.exec(markdown)?.[1]?.replace(/[*`]/g, "") ?? (m[1] as string)
    return { id: m[1] as string, title, markdown }
  })
