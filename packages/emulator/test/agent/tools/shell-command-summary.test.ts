/**
 * How Hermes 0.19.0 labels a terminal (or execute_code) call: `summarize_shell_command`. Every
 * expectation below is what the installed 0.19.0 function returns for the same input; the live
 * proof is packages/diff/scenarios/tools/tools-progress-label-summarises-compound-commands.json.
 */
import { describe, expect, it } from "vitest"
import { summarizeShellCommand } from "../../../src/agent/tools/ShellCommandSummary.js"
import { toolLabel, toolPreview } from "../../../src/agent/tools/ToolProgress.js"

const cases = (table: ReadonlyArray<readonly [string, string]>) => {
  for (const [command, summary] of table) expect(summarizeShellCommand(command), command).toBe(summary)
}

describe("summarizeShellCommand", () => {
  it("keeps the first real command of a compound one and counts the others", () => {
    cases([
      ["cd /tmp && echo a; echo b || true", "echo a + 1 command"],
      ["echo a; echo b; echo c", "echo a + 2 commands"],
      ["echo a;echo b", "echo a + 1 command"],
      ["echo a &&& echo b", "echo a + 1 command"],
      ["echo a ||| echo b", "echo a + 1 command"],
      ["&& echo a", "echo a"],
      ["cd /tmp;", "cd /tmp"],
      ["echo a\n&& echo b", "echo a + 1 command"]
    ])
  })

  it("does not split on a single & or | nor inside quotes, unless a backslash keeps the quote open", () => {
    cases([
      ["echo a & echo b", "echo a & echo b"],
      ["echo 'a;b' && printf \"x && y\"", "echo 'a;b' + 1 command"],
      ["echo \"a \\\" ; b\" ; echo c", "echo \"a \\\" ; b\" + 1 command"],
      ["echo 'a'\"b;c\" ; echo d", "echo 'a'\"b;c\" + 1 command"],
      ["echo 'unterminated ; echo b", "echo 'unterminated ; echo b"],
      ["echo \\' ; echo b", "echo \\' ; echo b"]
    ])
  })

  it("drops cd, export and the other silent heads, after VAR= assignments and a path", () => {
    cases([
      ["export X=1 && echo $X > /dev/null", "echo $X"],
      ["/bin/cd x && echo a", "echo a"],
      ["A=1 B=2 cd x && echo a", "echo a"],
      ["A\u0661=1 cd x && echo a", "echo a"],
      ["1A=1 cd x && echo a", "1A=1 cd x + 1 command"],
      ["\u00e9=1 cd x; echo y", "\u00e9=1 cd x + 1 command"],
      ["A= cd x; echo y", "echo y"],
      ["cd x; A=1; echo y", "A=1 + 1 command"]
    ])
  })

  it("shows a command whose every part is silent whole, and a lone command cleaned", () => {
    cases([
      ["cd /tmp", "cd /tmp"],
      ["cd /tmp && true", "cd /tmp && true"],
      [": && set -e && unset X && source f && . f && pushd x && popd && false", ": && set -e && unset X && source f && . f && pushd x && popd && false"],
      [";;", ";;"],
      ["", ""],
      ["   ", ""],
      ["echo a 2>&1", "echo a"],
      ["> x", "> x"],
      ["2 > x", "2"]
    ])
  })

  it("drops a pipe into head, tail, wc, sort or uniq and everything after it", () => {
    cases([
      ["echo one | head -1", "echo one"],
      ["echo one | grep o", "echo one | grep o"],
      ["echo a | head | tail", "echo a"],
      ["echo a | tail -1 | grep x", "echo a"],
      ["echo a | /usr/bin/wc -l && echo b", "echo a + 1 command"],
      ["echo a | uniq; echo b", "echo a + 1 command"],
      ["echo | sort ; echo b", "echo + 1 command"],
      ["echo a |head", "echo a |head"],
      ["| head", "| head"],
      ["echo a |", "echo a |"]
    ])
  })

  it("drops redirections that stand as their own words, with Unicode digits as Python's \\d", () => {
    cases([
      ["echo x >> /dev/null ; echo y 2> /dev/null", "echo x + 1 command"],
      ["echo a 2>/dev/null", "echo a 2>/dev/null"],
      ["echo a >&2", "echo a"],
      ["echo a 12>&34 x", "echo a x"],
      ["echo a 2>&1 | sort", "echo a"],
      ["echo a < in ; echo b", "echo a + 1 command"],
      ["echo a \u0663> f ; echo b", "echo a + 1 command"],
      ["echo a > ; echo b", "echo a + 1 command"],
      ["echo a <& 3; echo b", "echo a <& 3 + 1 command"],
      ["echo a >& x; echo b", "echo a >& x + 1 command"],
      ["echo a x> f; echo b", "echo a x> f + 1 command"],
      ["echo a >>> f; echo b", "echo a >>> f + 1 command"]
    ])
  })

  it("drops boundary echoes (dashes, _exit=, $? and ${, PIPESTATUS) from compound commands", () => {
    cases([
      ["FOO=1 echo hi 2>&1 && echo ---done--- && echo two", "FOO=1 echo hi + 1 command"],
      ["echo a && echo $? && echo PIPESTATUS", "echo a"],
      ["echo ${x} ; echo b", "echo b"],
      ["echo a=${x} ; echo b", "echo b"],
      ["echo a=$? ; echo b", "echo b"],
      ["echo a $? ; echo b", "echo b"],
      ["echo a$? ; echo b", "echo a$? + 1 command"],
      ["echo $x ; echo b", "echo $x + 1 command"],
      ["echo -- ; echo b", "echo b"],
      ["echo - ; echo b", "echo - + 1 command"],
      ["echo _exit=1; echo b", "echo b"],
      ["/bin/echo --; echo b", "echo b"],
      ["printf -- ; echo b", "printf -- + 1 command"]
    ])
  })

  it("one-lines the command on Python's whitespace first", () => {
    cases([
      ["echo a\u001cb;\u0085echo c", "echo a b + 1 command"],
      ["\ufeffecho a && echo b", "\ufeffecho a + 1 command"]
    ])
  })
})

describe("a terminal or execute_code label", () => {
  it("is the summary of the command or code", () => {
    expect(toolLabel("terminal", JSON.stringify({ command: "cd /tmp && echo a; echo b || true" }))).toBe("echo a + 1 command")
    expect(toolLabel("execute_code", JSON.stringify({ code: "cd x && print(1); print(2)" }))).toBe("print(1) + 1 command")
    expect(toolPreview({ name: "terminal", arguments: JSON.stringify({ command: "export Y=2 && echo $Y > /dev/null" }) })).toBe("echo $Y")
  })

  it("is str() of a non-string command, a list included, and nothing for a null or empty one", () => {
    expect(toolLabel("terminal", JSON.stringify({ command: ["echo a; echo b"] }))).toBe("['echo a; echo b']")
    expect(toolLabel("terminal", JSON.stringify({ command: 5 }))).toBe("5")
    expect(toolPreview({ name: "terminal", arguments: JSON.stringify({ command: null }) })).toBeNull()
    expect(toolPreview({ name: "execute_code", arguments: JSON.stringify({ code: null }) })).toBeNull()
    expect(toolPreview({ name: "terminal", arguments: JSON.stringify({ command: "  " }) })).toBeNull()
    expect(toolPreview({ name: "terminal", arguments: JSON.stringify({ timeout: 5 }) })).toBeNull()
  })
})
