import { Data } from "effect"

/**
 * A Python exception a tool raised instead of answering (its str() in `message`). Hermes' tool
 * executor does not catch it: the turn's outer loop does, answers every unanswered call of the
 * reply with it and calls the model again (AgentLoop.ts).
 */
export class ToolRaised extends Data.TaggedError("ToolRaised")<{ readonly message: string }> {}
