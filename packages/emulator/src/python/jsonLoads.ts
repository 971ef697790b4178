import { Either } from "effect"
import { codePointIndex } from "./codePoints.js"
import { INT_MAX_STR_DIGITS, pyIntDigitLimitMessage } from "./intParse.js"
import { PyJsonDecodeError } from "./PyJsonDecodeError.js"
import { PyDict, PyFloat, PyInt, PyList, type PyValue } from "./PyValue.js"

/**
 * `json.loads(text)` with CPython's acceptance rules and error messages
 * (C scanner, default `strict=True`), written from observed behaviour.
 * Python's own recursion limit is modelled by `maxDepth`.
 */

export interface PyJsonLoadsOptions {
  /**
   * Deepest container nesting that still parses. CPython raises
   * RecursionError beyond it; the threshold depends on how deep the caller's
   * Python stack already is. 983 was measured for `await request.json()` in
   * a bare aiohttp 3.14.1 handler on CPython 3.11.7 (994 at module level);
   * calibrate against the oracle if upstream's middleware stack differs.
   */
  readonly maxDepth?: number
}

// Internal control flow only; converted to PyJsonDecodeError at the boundary.
class Fail {
  constructor(
    readonly pyType: PyJsonDecodeError["pyType"],
    readonly msg: string,
    readonly unitPos: number,
    readonly fullMessage?: string
  ) {}
}

const SIMPLE_ESCAPES: Record<number, string> = {
  0x22: "\"",
  0x5c: "\\",
  0x2f: "/",
  0x62: "\b",
  0x66: "\f",
  0x6e: "\n",
  0x72: "\r",
  0x74: "\t"
}

const hexValue = (c: number): number =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39

class Parser {
  /** Index just past the last value scanned. */
  end = 0
  private readonly len: number
  constructor(private readonly s: string, private readonly maxDepth: number) {
    this.len = s.length
  }

  // Python's JSON whitespace is only these four; NBSP, BOM, \v etc. are data.
  skipWs(i: number): number {
    const s = this.s
    while (i < this.len) {
      const c = s.charCodeAt(i)
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break
      i++
    }
    return i
  }

  value(i: number, depth: number): PyValue {
    const s = this.s
    if (i >= this.len) throw new Fail("JSONDecodeError", "Expecting value", i)
    switch (s.charCodeAt(i)) {
      case 0x22:
        return this.string(i + 1)
      case 0x7b:
        return this.object(i + 1, this.enter(i, depth, "object"))
      case 0x5b:
        return this.array(i + 1, this.enter(i, depth, "array"))
      case 0x6e:
        return this.literal(i, "null", null)
      case 0x74:
        return this.literal(i, "true", true)
      case 0x66:
        return this.literal(i, "false", false)
      // allow_nan-style constants: json.loads accepts them by default.
      case 0x4e:
        return this.literal(i, "NaN", new PyFloat(NaN))
      case 0x49:
        return this.literal(i, "Infinity", new PyFloat(Infinity))
      case 0x2d:
        if (s.startsWith("-Infinity", i)) {
          this.end = i + 9
          return new PyFloat(-Infinity)
        }
        return this.number(i)
      default:
        return this.number(i)
    }
  }

  private enter(i: number, depth: number, kind: "object" | "array"): number {
    if (depth >= this.maxDepth) {
      throw new Fail(
        "RecursionError",
        "maximum recursion depth exceeded",
        i,
        `maximum recursion depth exceeded while decoding a JSON ${kind} from a unicode string`
      )
    }
    return depth + 1
  }

  private literal(i: number, word: string, v: PyValue): PyValue {
    if (!this.s.startsWith(word, i)) throw new Fail("JSONDecodeError", "Expecting value", i)
    this.end = i + word.length
    return v
  }

  // -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? ; a dangling "." or "e" is not
  // consumed, so "1." parses as 1 followed by extra data.
  private number(start: number): PyValue {
    const s = this.s
    const len = this.len
    let i = start
    if (s.charCodeAt(i) === 0x2d) i++
    if (i >= len) throw new Fail("JSONDecodeError", "Expecting value", start)
    const first = s.charCodeAt(i)
    if (first === 0x30) i++
    else if (first >= 0x31 && first <= 0x39) {
      i++
      while (i < len && isDigit(s.charCodeAt(i))) i++
    } else throw new Fail("JSONDecodeError", "Expecting value", start)
    let isFloat = false
    if (s.charCodeAt(i) === 0x2e && isDigit(s.charCodeAt(i + 1))) {
      isFloat = true
      i += 2
      while (i < len && isDigit(s.charCodeAt(i))) i++
    }
    const e = s.charCodeAt(i)
    if (e === 0x65 || e === 0x45) {
      let j = i + 1
      const sign = s.charCodeAt(j)
      if (sign === 0x2b || sign === 0x2d) j++
      if (isDigit(s.charCodeAt(j))) {
        j++
        while (j < len && isDigit(s.charCodeAt(j))) j++
        isFloat = true
        i = j
      }
    }
    this.end = i
    const text = s.slice(start, i)
    // Both JS and CPython round decimal->double correctly, so Number() agrees.
    if (isFloat) return new PyFloat(Number(text))
    const digits = text.charCodeAt(0) === 0x2d ? text.length - 1 : text.length
    if (digits > INT_MAX_STR_DIGITS) {
      throw new Fail(
        "ValueError",
        "Exceeds the limit",
        start,
        pyIntDigitLimitMessage(digits)
      )
    }
    return new PyInt(BigInt(text))
  }

  /** `start` is just past the opening quote. */
  string(start: number): string {
    const s = this.s
    const len = this.len
    let out = ""
    let chunk = start
    let i = start
    for (;;) {
      if (i >= len) throw new Fail("JSONDecodeError", "Unterminated string starting at", start - 1)
      const c = s.charCodeAt(i)
      if (c === 0x22) {
        this.end = i + 1
        return chunk === start ? s.slice(start, i) : out + s.slice(chunk, i)
      }
      if (c < 0x20) throw new Fail("JSONDecodeError", "Invalid control character at", i)
      if (c !== 0x5c) {
        i++
        continue
      }
      out += s.slice(chunk, i)
      if (i + 1 >= len) throw new Fail("JSONDecodeError", "Unterminated string starting at", start - 1)
      const esc = s.charCodeAt(i + 1)
      if (esc === 0x75) {
        // Four hex digits, and CPython also insists something follows them.
        if (i + 6 >= len) throw new Fail("JSONDecodeError", "Invalid \\uXXXX escape", i + 1)
        let code = 0
        for (let k = i + 2; k < i + 6; k++) {
          const h = hexValue(s.charCodeAt(k))
          if (h < 0) throw new Fail("JSONDecodeError", "Invalid \\uXXXX escape", i + 1)
          code = code * 16 + h
        }
        // Escaped surrogate pairs need no joining: adjacent UTF-16 units
        // already form the astral character in JS, and a lone one stays lone.
        out += String.fromCharCode(code)
        i += 6
      } else {
        const simple = SIMPLE_ESCAPES[esc]
        if (simple === undefined) throw new Fail("JSONDecodeError", "Invalid \\escape", i)
        out += simple
        i += 2
      }
      chunk = i
    }
  }

  private object(i: number, depth: number): PyDict {
    const s = this.s
    const map = new Map<string, PyValue>()
    i = this.skipWs(i)
    if (s.charCodeAt(i) === 0x7d) {
      this.end = i + 1
      return new PyDict(map)
    }
    for (;;) {
      if (s.charCodeAt(i) !== 0x22) {
        throw new Fail("JSONDecodeError", "Expecting property name enclosed in double quotes", i)
      }
      const key = this.string(i + 1)
      i = this.skipWs(this.end)
      if (s.charCodeAt(i) !== 0x3a) throw new Fail("JSONDecodeError", "Expecting ':' delimiter", i)
      i = this.skipWs(i + 1)
      // Map.set keeps a duplicate key's first position with the last value, as dict does.
      map.set(key, this.value(i, depth))
      i = this.skipWs(this.end)
      const c = s.charCodeAt(i)
      if (c === 0x7d) {
        this.end = i + 1
        return new PyDict(map)
      }
      if (c !== 0x2c) throw new Fail("JSONDecodeError", "Expecting ',' delimiter", i)
      i = this.skipWs(i + 1)
    }
  }

  private array(i: number, depth: number): PyList {
    const s = this.s
    const items: Array<PyValue> = []
    i = this.skipWs(i)
    if (s.charCodeAt(i) === 0x5d) {
      this.end = i + 1
      return new PyList(items)
    }
    for (;;) {
      items.push(this.value(i, depth))
      i = this.skipWs(this.end)
      const c = s.charCodeAt(i)
      if (c === 0x5d) {
        this.end = i + 1
        return new PyList(items)
      }
      if (c !== 0x2c) throw new Fail("JSONDecodeError", "Expecting ',' delimiter", i)
      i = this.skipWs(i + 1)
    }
  }
}

const toError = (s: string, f: Fail): PyJsonDecodeError => {
  const pos = codePointIndex(s, f.unitPos)
  // Python: lineno = doc.count("\n", 0, pos) + 1; colno = pos - doc.rfind("\n", 0, pos)
  const lastNl = f.unitPos === 0 ? -1 : s.lastIndexOf("\n", f.unitPos - 1)
  const lineno = lastNl < 0 ? 1 : countNewlines(s, f.unitPos) + 1
  const colno = lastNl < 0 ? pos + 1 : pos - codePointIndex(s, lastNl)
  return new PyJsonDecodeError({
    pyType: f.pyType,
    msg: f.msg,
    message: f.fullMessage ?? `${f.msg}: line ${lineno} column ${colno} (char ${pos})`,
    pos,
    lineno,
    colno
  })
}

const countNewlines = (s: string, end: number): number => {
  let n = 0
  for (let i = s.indexOf("\n"); i >= 0 && i < end; i = s.indexOf("\n", i + 1)) n++
  return n
}

/** Parse like Python's `json.loads(text)` (text is the already-decoded str). */
export const pyJsonLoads = (
  text: string,
  options?: PyJsonLoadsOptions
): Either.Either<PyValue, PyJsonDecodeError> => {
  try {
    if (text.charCodeAt(0) === 0xfeff) {
      throw new Fail("JSONDecodeError", "Unexpected UTF-8 BOM (decode using utf-8-sig)", 0)
    }
    const p = new Parser(text, options?.maxDepth ?? 983)
    const v = p.value(p.skipWs(0), 0)
    const end = p.skipWs(p.end)
    if (end !== text.length) throw new Fail("JSONDecodeError", "Extra data", end)
    return Either.right(v)
  } catch (e) {
    if (e instanceof Fail) return Either.left(toError(text, e))
    throw e
  }
}
