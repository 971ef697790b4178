/**
 * Hermes 0.19.0 matches its approval patterns on the NFKC-normalised command with Python's Unicode
 * `\s`, `\b` and `\w`, not JavaScript's. Each expectation is what the installed 0.19.0
 * `detect_dangerous_command` returns for the same command; the live proof is
 * packages/diff/scenarios/tools/tools-approval-python-whitespace-and-word-boundaries.json.
 */
import { describe, expect, it } from "vitest"
import { detectDangerousCommand } from "../../../src/agent/tools/DangerousCommands.js"

const flagged = (command: string) => detectDangerousCommand(command)?.patternKey ?? null

describe("the SQL approval patterns", () => {
  it("take Python's whitespace: \\x1c-\\x1f and the Unicode spaces, not U+FEFF", () => {
    expect(flagged("echo delete\u001cfrom t")).toBe("SQL DELETE without WHERE")
    expect(flagged("echo delete\u001dfrom t")).toBe("SQL DELETE without WHERE")
    expect(flagged("echo delete\u001ffrom t")).toBe("SQL DELETE without WHERE")
    expect(flagged("echo delete\u3000from t")).toBe("SQL DELETE without WHERE")
    expect(flagged("echo drop\u2003table x")).toBe("SQL DROP")
    expect(flagged("echo drop\u00a0database d")).toBe("SQL DROP")
    expect(flagged("echo truncate table\u001c\u00e9")).toBe("SQL TRUNCATE")
    expect(flagged("echo delete\ufefffrom t")).toBeNull()
    expect(flagged("echo drop\ufeff table x")).toBeNull()
    expect(flagged("echo delete\u200bfrom t")).toBeNull()
  })

  it("take Python's word characters for \\b and \\w: letters and digits of any script", () => {
    expect(flagged("echo \u00e9delete from t")).toBeNull()
    expect(flagged("echo \u0663delete from t")).toBeNull()
    expect(flagged("echo delete from\u0663 t")).toBeNull()
    expect(flagged("echo drop table\u00e9")).toBeNull()
    expect(flagged("echo drop tableau")).toBeNull()
    expect(flagged("echo delete from t \u00e9where x")).toBe("SQL DELETE without WHERE")
    expect(flagged("echo delete from t where x")).toBeNull()
    expect(flagged("echo delete from t\nwhere x")).toBe("SQL DELETE without WHERE")
    expect(flagged("echo truncate \u00e9")).toBe("SQL TRUNCATE")
    expect(flagged("echo truncate x")).toBe("SQL TRUNCATE")
  })

  it("read the command NFKC-normalised, without NUL bytes, in any case", () => {
    expect(flagged("echo \uff44\uff45\uff4c\uff45\uff54\uff45 \uff46\uff52\uff4f\uff4d t")).toBe("SQL DELETE without WHERE")
    expect(flagged("echo delete\u0000 from t")).toBe("SQL DELETE without WHERE")
    expect(flagged("echo DELETE FROM t")).toBe("SQL DELETE without WHERE")
  })
})
