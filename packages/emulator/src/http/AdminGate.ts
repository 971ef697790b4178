/**
 * The gate in front of every control-plane path (`/__admin`, routes with `auth: "admin"`), known
 * command or not: @hermetic/script's ControlPlaneGuard (loopback Host and Origin, the key, JSON),
 * then the declared body size. Its refusals, and every command's, are AdminError bodies.
 */
import { adminError as adminErrorBody, guardControlPlane } from "@hermetic/script"
import type { EmulatorConfigShape } from "../config/EmulatorConfig.js"
import { type EmuRequestHead, type EmuResponse, jsonResponse } from "./Exchange.js"
import { bodyLimitShortCircuit } from "./Middleware.js"

export const adminError = (status: number, message: string): EmuResponse => jsonResponse(adminErrorBody(message), status)

/** The answer that stops a control-plane request before its body is read, or undefined to go on. */
export const adminGate = (config: EmulatorConfigShape, req: EmuRequestHead): EmuResponse | undefined => {
  // the admin key, else the API key: a key set for the API protects the control plane too
  const requiredKey = config.adminKey ?? (config.apiKey === "" ? undefined : config.apiKey)
  const verdict = guardControlPlane({ requiredKey }, req)
  if (verdict._tag === "refused") return adminError(verdict.status, verdict.message)
  // a declared size over the limit is answered before any byte is awaited (as the API's body
  // limit does): waiting for a body that never comes held the connection until Node's 408
  return bodyLimitShortCircuit(req)
}
