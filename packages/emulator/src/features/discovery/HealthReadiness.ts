/**
 * The body of GET /health/detailed: the readiness checks and runtime status a real gateway reads
 * from its HERMES_HOME, its gateway_state.json and the host. Shape and key order as observed on the
 * real 0.19.0 gateway (evidence/cassette-sources/live/discovery-0.19.0.md); 0.21.0 has the same handler per the
 * reference notes (§4.1). Host-dependent values are fixed so answers are deterministic:
 *
 * - `pid`: EMULATED_PID, not the emulator's own process id;
 * - disk: EMULATED_DISK (a healthy disk: 5.0 % used, 100 GB free), never "degraded";
 * - `updated_at` and the api_server platform's `updated_at`: the moment the emulated gateway
 *   process started (its namespace clock), in Python's isoformat with +00:00;
 * - `active_agents`: upstream's runtime status counts messaging, cron and API run work, but writes
 *   it only on lifecycle transitions (0 at start: a held run leaves it 0, observed live), when a
 *   drain begins or ends, and every second while draining (a held run then counts 1, observed
 *   live through a generated scenario).
 */
import type { GatewayState } from "../../services/GatewayProcess.js"
import { PyFloat } from "../../python/index.js"

export const EMULATED_PID = 4242
export const EMULATED_DISK = { usedPercent: 5.0, freeBytes: 100_000_000_000 } as const

/** Python's `datetime.fromtimestamp(t, timezone.utc).isoformat()` (microsecond precision). */
export const pyIsoFormat = (epochSeconds: number): string => {
  const whole = Math.floor(epochSeconds)
  const micros = Math.round((epochSeconds - whole) * 1_000_000)
  const base = new Date(whole * 1000).toISOString().slice(0, 19)
  return micros === 0 ? `${base}+00:00` : `${base}.${String(micros).padStart(6, "0")}+00:00`
}


/** `activeApiRuns`: the process' runs in flight (features/runs/Runs.ts counts them). */
export const detailedHealth = (gw: GatewayState, activeApiRuns: number, version: string) => {
  const gatewayState = gw.draining ? "draining" : "running"
  const activeAgents = gw.draining ? activeApiRuns : gw.persistedActiveAgents
  const startedAt = pyIsoFormat(gw.startedAt)
  const checks = {
    state_db: { status: "ok" },
    config: { status: "ok" },
    model: { status: "ok" },
    disk: { status: "ok", used_percent: new PyFloat(EMULATED_DISK.usedPercent), free_bytes: EMULATED_DISK.freeBytes },
    gateway: { status: "ok", state: gatewayState, connected_platforms: 1, platforms: 1 },
    background_queues: { status: "ok", active_api_runs: activeApiRuns, process_completions: 0, active_delegations: 0 }
  }
  return {
    status: "ok",
    readiness: { status: "ok", checks },
    platform: "hermes-agent",
    version,
    gateway_state: gatewayState,
    platforms: { api_server: { state: "connected", error_code: null, error_message: null, updated_at: startedAt } },
    active_agents: activeAgents,
    // derive_gateway_busy: a running gateway with a persisted agent count above 0 (a draining one is never busy)
    gateway_busy: gatewayState === "running" && activeAgents > 0,
    // derive_gateway_drainable: only a running gateway can begin a drain
    gateway_drainable: gatewayState === "running",
    exit_reason: null,
    updated_at: startedAt,
    pid: EMULATED_PID
  }
}
