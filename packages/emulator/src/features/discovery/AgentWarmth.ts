/**
 * Whether the emulated gateway process has run an agent turn yet. Some answers change after the
 * first one (GET /v1/toolsets lists lazily registered tools), so routes that play a turn mark the
 * process; a restart (a new GatewayState) starts cold again, as a real process does.
 */
import type { GatewayState } from "../../services/GatewayProcess.js"

const warmed = new WeakSet<GatewayState>()

export const markAgentTurn = (gw: GatewayState): void => void warmed.add(gw)

/** Runs count too: starting a run marks the process. */
export const hasRunAgentTurn = (gw: GatewayState): boolean => warmed.has(gw)
