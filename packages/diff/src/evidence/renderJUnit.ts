/** JUnit XML from the Evidence: one test case per scenario; divergences fail it, a target error errors it. */
import type { Evidence } from "./Evidence.js"

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

export const renderJUnit = (e: Evidence): string => {
  const s = e.summary
  const name = `hermetic ${e.provenance.pin}: ${e.provenance.reference.kind} vs ${e.provenance.candidate.kind}`
  const cases = e.scenarios.map((sc) => {
    const seconds = ((sc.durationMs.reference + sc.durationMs.candidate) / 1000).toFixed(3)
    const head = `  <testcase classname="${xml(name)}" name="${xml(sc.name)}" time="${seconds}">`
    if (sc.verdict === "error") return `${head}\n    <error message="${xml(sc.error ?? "target error")}"/>\n  </testcase>`
    const divergences = [...sc.steps.flatMap((st) => st.differences), ...sc.differences].filter((d) => d.classification === "divergence")
    if (divergences.length === 0) return `${head}</testcase>`
    const text = divergences.map((d) => `step ${d.step} ${d.operation} ${d.kind} ${d.path}: real ${JSON.stringify(d.expected)} ≠ emulator ${JSON.stringify(d.actual)}`).join("\n")
    return `${head}\n    <failure message="${divergences.length} divergence(s)">${xml(text)}</failure>\n  </testcase>`
  })
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites tests="${s.scenarios}" failures="${s.divergent}" errors="${s.errors}">`,
    `<testsuite name="${xml(name)}" tests="${s.scenarios}" failures="${s.divergent}" errors="${s.errors}" timestamp="${e.provenance.startedAt}">`,
    ...cases,
    `</testsuite>`,
    `</testsuites>`,
    ""
  ].join("\n")
}
