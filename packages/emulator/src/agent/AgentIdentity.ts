import { AGENT_MAX_TURNS } from "@hermetic/script"

/**
 * Who the emulated gateway's agent is: the model and provider its config.yaml names. They are what
 * state.db records for every agent turn (sessions.model) and what cron jobs snapshot, and differ
 * from the API server's advertised model name (hermes-agent). The values are the oracle runner's
 * HERMES_HOME (model.default = the fake model's id, provider "custom"), so both targets agree.
 */
export const AGENT_MODEL = "hermetic-fake-model"
export const AGENT_PROVIDER = "custom"

/** sessions.model_config as the agent writes it (only its presence is visible through the API); max_iterations is the runner's agent.max_turns. */
export const AGENT_MODEL_CONFIG = JSON.stringify({ max_iterations: AGENT_MAX_TURNS, reasoning_config: null, max_tokens: 4096 })

/**
 * sessions.system_prompt: the agent stores its assembled system prompt; the API only reveals that
 * one exists, so the emulator stores a stand-in rather than Hermes' prompt text.
 */
export const AGENT_SYSTEM_PROMPT_STANDIN = "[hermetic: the agent's assembled system prompt]"
