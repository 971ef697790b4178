/**
 * Public entry point of @hermetic/diff: the Scenario and Cassette formats, the targets a scenario
 * plays against, the comparison and its evidence. The `oracle` CLI is the usual way in; this is
 * for programs that build scenarios or read evidence themselves.
 */
export * from "./scenario/Scenario.js"
export { InvalidScenarioFile, readScenarioFile, encodeScenario } from "./scenario/ScenarioFile.js"
export { Cassette, CASSETTE_VERSION } from "./cassette/Cassette.js"
export { Evidence, EVIDENCE_SCHEMA_VERSION, type ClassifiedDifference, type Verdict } from "./evidence/Evidence.js"
export type { Target, TargetKind, TargetInfo, StepOutcome } from "./target/Target.js"
export { TargetError } from "./target/Target.js"
export { emulatorInProcessTarget, emulatorHttpTarget, type EmulatorTargetOptions } from "./target/EmulatorTargets.js"
export { cassetteTarget } from "./target/CassetteTarget.js"
export { compareAll, exitCodeOf, type CompareAllOptions, type ComparisonResult, type ScenarioInput } from "./compare/compareAll.js"
export { generateScenarios } from "./generate/generateScenarios.js"
export { readEvidenceFile, readEvidencePaths, EvidenceFileError } from "./evidence/readEvidence.js"
export { writeEvidence, type WrittenEvidence } from "./evidence/writeEvidence.js"
export { renderHtmlReport } from "./report/renderHtmlReport.js"
export { writeHtmlReport } from "./report/writeHtmlReport.js"
export type { HtmlReportInput } from "./report/reportPayload.js"
