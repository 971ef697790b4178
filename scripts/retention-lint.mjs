#!/usr/bin/env node
/**
 * Finds the two source patterns that keep memory alive until V8's next full collection when they
 * run per request (docs/performance.md, "What a request leaves behind"):
 *
 * - a generator function expression inside another function (`(ctx) => Effect.gen(function*() {…})`):
 *   each evaluation makes a new generator function, whose first generator gives it its own map,
 *   made in old space; that map keeps the function and everything it closes over alive;
 * - a function literal assigned to a property (`effect.i1 = () => self`): V8's parser allocates
 *   such a closure in old space ("pretenured"), where it keeps what it closes over alive.
 *
 * Usage: node scripts/retention-lint.mjs [dir ...]   (default: packages/emulator/src packages/script/src)
 * Prints `file:line:col  kind  text` per finding; exits 1 when any is found.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import ts from "typescript"

const isFunctionLike = (n) =>
  ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) || ts.isSetAccessorDeclaration(n) || ts.isConstructorDeclaration(n)

/** Findings in one file's text: { line, col, kind, text }. */
export const findRetainingPatterns = (fileName, text) => {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const found = []
  const report = (node, kind) => {
    const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf))
    found.push({ line: line + 1, col: character + 1, kind, text: text.split("\n")[line].trim().slice(0, 100) })
  }
  const visit = (node, insideFunction) => {
    if (ts.isFunctionExpression(node) && node.asteriskToken !== undefined && insideFunction) report(node, "generator made per call")
    if (
      ts.isBinaryExpression(node) &&
      [ts.SyntaxKind.EqualsToken, ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.BarBarEqualsToken].includes(node.operatorToken.kind) &&
      (ts.isPropertyAccessExpression(node.left) || ts.isElementAccessExpression(node.left)) &&
      (ts.isArrowFunction(ts.skipPartiallyEmittedExpressions(node.right)) || ts.isFunctionExpression(node.right))
    ) report(node, "function literal assigned to a property")
    ts.forEachChild(node, (child) => visit(child, insideFunction || isFunctionLike(node)))
  }
  visit(sf, false)
  return found
}

const sourceFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [join(dir, e.name)] : []
  )

if (import.meta.url === `file://${process.argv[1]}`) {
  const dirs = process.argv.length > 2 ? process.argv.slice(2) : ["packages/emulator/src", "packages/script/src"]
  let n = 0
  for (const dir of dirs) {
    for (const file of sourceFiles(dir)) {
      for (const f of findRetainingPatterns(file, readFileSync(file, "utf8"))) {
        n++
        process.stdout.write(`${relative(process.cwd(), file)}:${f.line}:${f.col}  ${f.kind}  ${f.text}\n`)
      }
    }
  }
  process.stdout.write(`${n} found\n`)
  process.exit(n > 0 ? 1 : 0)
}
