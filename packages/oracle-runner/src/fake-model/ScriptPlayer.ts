/**
 * Plays a Script's turns to the main-agent model calls of the real gateway, in order.
 *
 * Turn boundaries: a main call whose last message is the user's opens the next Script turn; a call
 * whose last message is a tool result (or an assistant message) continues the current turn and gets
 * its next reply. When the current turn has no reply left for a continuation, the call gets the
 * fixed "exhausted" answer and no later turn is touched, so a miscounted turn cannot shift every
 * following one.
 *
 * Errors are sticky for Hermes' retries: Hermes retries a failed model call with the same messages
 * (0.19.0: see `isRetriedModelStatus` in the Script module), and each
 * retry gets the same error again, so an error reply means "this agent turn fails". Stickiness is
 * bounded by that attempt count: a later turn whose messages happen to be identical (a new run with
 * the same input) must open the next Script turn, not replay the old error.
 */
import { isRetriedModelStatus, MODEL_CALL_ATTEMPTS_WHEN_RETRIED, type Reply, type Script, type Turn } from "@hermetic/emulator/script"
import type { ChatMessage } from "./ChatRequest.js"

export type Pick =
  | { readonly kind: "reply"; readonly turn: number; readonly index: number; readonly reply: Reply; readonly skipped: number }
  | { readonly kind: "sticky-error"; readonly turn: number; readonly index: number; readonly reply: Reply }
  | { readonly kind: "exhausted"; readonly why: "no-turn-queued" | "turn-has-no-reply-left" }

type Current = { readonly turn: number; readonly replies: ReadonlyArray<Reply>; next: number }

/** How many times Hermes retries a model call that failed with `status`. */
export const modelRetries = (status: number): number =>
  isRetriedModelStatus(status) ? MODEL_CALL_ATTEMPTS_WHEN_RETRIED - 1 : 0

export const fingerprint = (messages: ReadonlyArray<ChatMessage>): string => JSON.stringify(messages)

export class ScriptPlayer {
  private queue: Array<Turn> = []
  private turnsStarted = 0
  private current: Current | null = null
  private lastError:
    | { readonly fp: string; readonly turn: number; readonly index: number; readonly reply: Reply; retriesLeft: number }
    | null = null

  append(script: Script): number {
    this.queue.push(...script.turns)
    return this.queue.length
  }

  reset(): void {
    this.queue = []
    this.turnsStarted = 0
    this.current = null
    this.lastError = null
  }

  get pendingTurns(): number {
    return this.queue.length
  }

  get state(): { readonly pendingTurns: number; readonly turnsStarted: number; readonly currentTurn: number | null; readonly repliesLeftInTurn: number } {
    return {
      pendingTurns: this.queue.length,
      turnsStarted: this.turnsStarted,
      currentTurn: this.current?.turn ?? null,
      repliesLeftInTurn: this.current ? this.current.replies.length - this.current.next : 0
    }
  }

  /** Chooses the reply for one main-agent call. `continuesTurn` overrides the last-message rule. */
  pick(messages: ReadonlyArray<ChatMessage>, continuesTurn = false): Pick {
    const fp = fingerprint(messages)
    if (this.lastError && this.lastError.fp === fp && this.lastError.retriesLeft > 0) {
      this.lastError.retriesLeft -= 1
      return { kind: "sticky-error", turn: this.lastError.turn, index: this.lastError.index, reply: this.lastError.reply }
    }
    this.lastError = null
    const opensTurn = !continuesTurn && messages.at(-1)?.role === "user"
    let skipped = 0
    if (opensTurn || this.current === null) {
      if (this.current) skipped = this.current.replies.length - this.current.next
      const next = this.queue.shift()
      if (!next) {
        this.current = null
        return { kind: "exhausted", why: "no-turn-queued" }
      }
      this.current = { turn: this.turnsStarted++, replies: next.replies, next: 0 }
    }
    const cur = this.current
    const reply = cur.replies[cur.next]
    if (!reply) return { kind: "exhausted", why: "turn-has-no-reply-left" }
    const index = cur.next++
    if (reply.error) this.lastError = { fp, turn: cur.turn, index, reply, retriesLeft: modelRetries(reply.error.status) }
    return { kind: "reply", turn: cur.turn, index, reply, skipped }
  }
}
