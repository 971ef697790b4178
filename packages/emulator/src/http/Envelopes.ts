/**
 * The error bodies Hermes' API server writes. Three shapes exist: the full OpenAI envelope
 * (message, type, param, code), the bare one (message, type) some validators return, and the
 * plain `{"error": "<text>"}` of the jobs API and the profile middleware.
 */
import { type EmuResponse, jsonResponse, textResponse } from "./Exchange.js"

export const openaiError = (
  message: string,
  options: { readonly type?: string; readonly param?: string | null; readonly code?: string | null } = {}
) => ({
  error: {
    message,
    type: options.type ?? "invalid_request_error",
    param: options.param ?? null,
    code: options.code ?? null
  }
})

export const errorResponse = (
  status: number,
  message: string,
  options: {
    readonly type?: string
    readonly param?: string | null
    readonly code?: string | null
    readonly headers?: ReadonlyArray<readonly [string, string]>
  } = {}
): EmuResponse => jsonResponse(openaiError(message, options), status, options.headers ?? [])

export const bareErrorResponse = (status: number, message: string): EmuResponse =>
  jsonResponse({ error: { message, type: "invalid_request_error" } }, status)

export const plainErrorResponse = (status: number, message: string): EmuResponse =>
  jsonResponse({ error: message }, status)

export const runNotFound = (runId: string): EmuResponse =>
  errorResponse(404, `Run not found: ${runId}`, { code: "run_not_found" })

/** aiohttp's answer to an exception escaping a handler (Connection: close, plain text). */
export const internalServerError = (): EmuResponse =>
  textResponse("500 Internal Server Error\n\nServer got itself in trouble", 500, [["Connection", "close"]])

/** aiohttp's HTTPNotFound / HTTPMethodNotAllowed bodies. */
export const aiohttpNotFound = (): EmuResponse => textResponse("404: Not Found", 404)
export const aiohttpMethodNotAllowed = (allow: ReadonlyArray<string>): EmuResponse =>
  textResponse("405: Method Not Allowed", 405, [["Allow", allow.join(",")]])
