/**
 * Python's str() of a handler value (None, True, 1, 1.0, 'x', [...], {...}), for the places
 * upstream stringifies client input before validating it.
 */
import { fromJs } from "../python/convert.js"
import { pyRepr as reprPy } from "../python/pyRepr.js"

export const pyRepr = (v: unknown): string => reprPy(fromJs(v))

export const pyStr = (v: unknown): string => (typeof v === "string" ? v : pyRepr(v))
