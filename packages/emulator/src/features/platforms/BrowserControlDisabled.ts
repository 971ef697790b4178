/**
 * 0.21.0's browser-extension control surface (register, the WebSocket, artifact upload/download),
 * which /v1/capabilities advertises. It is off unless `browser.extension_control.enabled`, and the
 * emulator emulates only that default: 404 `browser_control_disabled` (code from the 0.21.0
 * reference notes; the message is ours, unverified — the pin cannot be started here).
 */
import { Effect } from "effect"
import { errorResponse } from "../../http/Envelopes.js"
import type { Handler } from "../../http/Route.js"

export const browserControlDisabled: Handler = () =>
  Effect.succeed(errorResponse(404, "Browser extension control is disabled", { code: "browser_control_disabled" }))
