/**
 * Python semantics, one API: json.loads / json.dumps, repr / str, strip, bool(), int(), request
 * text decoding, the texts of the exceptions upstream lets escape, difflib's closest match, and
 * Hermes' own coercions of client input. Everything outside this folder imports from here.
 */
export * from "./PyValue.js"
export { PyJsonDecodeError } from "./PyJsonDecodeError.js"
export { PyValueError } from "./PyValueError.js"
export { pyJsonLoads, type PyJsonLoadsOptions } from "./jsonLoads.js"
export { pyJsonDumps, pyJsonString, type PyJsonDumpsOptions } from "./jsonDumps.js"
export { pyDumps } from "./dumps.js"
export { pyFloatRepr, pyJsonFloat } from "./floatRepr.js"
export { pyIntRepr } from "./intRepr.js"
export { pyTimedeltaRepr } from "./timedeltaRepr.js"
export { pyRepr, pyStr, pyStrRepr, pyIsPrintable } from "./pyRepr.js"
export { pyStrip, pyLstrip, pyRstrip, pyIsSpace, PY_SPACE_CLASS_BODY } from "./strip.js"
export { pyTruthy } from "./truthy.js"
export { fromJs, isDict, toHandlerValue } from "./convert.js"
export { pyRequestText, pyCodecName, contentTypeCharset, PyTextDecodeError } from "./requestText.js"
export { compareCodePoints, codePointIndex, pyPrefix, pyUtf8Encodable } from "./codePoints.js"
export { pyDecodeSurrogateEscape, pyHeaderText } from "./surrogateEscape.js"
export { INT_MAX_STR_DIGITS, pyDecimalDigitsValue, pyIntDigitLimitMessage, pyIntParse, parseNonNegativeInt } from "./intParse.js"
export { pyFloatParse } from "./floatParse.js"
export { coerceRequestBool } from "./requestBool.js"
export { closestMatch } from "./closeMatches.js"
export { noAttribute, noLen, notAString, notIterable, pyIntValue, pyLen, pyTypeName } from "./errors.js"
