/**
 * The agent's iteration budget: model calls per turn. The oracle runner writes it into the real
 * gateway's config.yaml as `agent.max_turns` (bridged by 0.19.0 to HERMES_MAX_ITERATIONS), and the
 * emulator's agent loop spends the same budget (agent/IterationBudget.ts). One figure, named here,
 * so the two targets cannot drift apart.
 */
export const AGENT_MAX_TURNS = 20
