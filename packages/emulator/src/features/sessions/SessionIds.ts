/**
 * Session identifiers as the API server makes and checks them: `api_<int(time)>_<8 hex>` when the
 * client names none; ids with CR/LF/NUL, path traversal or a drive prefix refused; 256 characters
 * at most on create.
 */
import type { IdsShape } from "../../services/Ids.js"

export const MAX_SESSION_ID_LENGTH = 256

export const newApiSessionId = (ids: IdsShape, now: number): string => `api_${Math.trunc(now)}_${ids.hex(8)}`

export const hasControlBreak = (id: string): boolean => /[\r\n\0]/.test(id)

/** gateway.session._is_path_unsafe: "..", a slash or backslash, or a leading "<letter>:". */
export const isPathUnsafe = (id: string): boolean => {
  if (id === "") return false
  if (id.includes("..") || id.includes("/") || id.includes("\\")) return true
  const points = [...id]
  return points.length >= 2 && /^\p{L}$/u.test(points[0] as string) && points[1] === ":"
}
