/**
 * The one Script cursor: which Script reply answers which model call. Pure — a state value and
 * functions from a state to a new one — so the emulator and the fake model, which both hold one
 * per namespace, cannot play a Script differently.
 *
 * Turn boundaries: a main call that opens a turn (its last message is the user's, and not one of
 * Hermes' own "go on" prompts — see `classifyModelCall`) takes a Script turn: the first queued
 * turn whose `when` it matches, else the first queued turn without `when`. A turn with `when` is
 * never taken by a call it does not match; it keeps its place in the queue until one comes. A call
 * that continues a turn (a tool result, a length continuation right after a reply cut by the length
 * limit) gets the current turn's next reply;
 * with no current turn (none opened yet, the last one found the queue empty, or a reset) it opens
 * the next queued turn, as the fake model behind the real 0.19.0 gateway always did. When the
 * current turn has no reply left for a continuation, the call gets the fixed "exhausted" answer
 * and no later turn is touched, so a miscounted turn cannot shift every following one.
 *
 * Errors are sticky for Hermes' retries: Hermes retries a failed model call with the same messages
 * (see RetryPolicy), and each retry gets the same error again, so an error reply means "this agent
 * turn fails". Stickiness is bounded by that attempt count: a later turn whose messages happen to
 * be identical (a new run with the same input) opens the next Script turn, not the old error.
 */
import { modelRetries } from "./RetryPolicy.js"
import type { Reply, Script, Turn, When } from "./Script.js"

export type ExhaustedWhy = "no-turn-queued" | "turn-has-no-reply-left"

export type Pick =
  | { readonly kind: "reply"; readonly turn: number; readonly index: number; readonly reply: Reply; readonly skipped: number }
  | { readonly kind: "sticky-error"; readonly turn: number; readonly index: number; readonly reply: Reply }
  | { readonly kind: "exhausted"; readonly why: ExhaustedWhy }

/** A main-agent model call as the cursor needs it (the player derives it from a ModelCall). */
export interface CursorCall {
  /** True when the call opens an agent turn; false when it continues the current one. */
  readonly opensTurn: boolean
  /**
   * Identity of the request: an identical call right after an error is Hermes' retry of it. Asked
   * for only when an error is in play (serializing the messages cost every call ~1.5 µs).
   */
  readonly fingerprint: () => string
  /** Whether a turn's `when` holds for this call. */
  readonly matches: (when: When) => boolean
  /**
   * A Hermes "go on" prompt after an assistant message: it continues the turn only if the turn's
   * last reply was cut by the length limit; after a finished reply it is the user's and opens a turn.
   */
  readonly afterCutReply?: boolean
}

/** Index of the turn a call opening a turn takes: a matching conditional turn first, else the queue's next. */
export const turnFor = (queue: ReadonlyArray<Turn>, matches: (when: When) => boolean): number => {
  const matched = queue.findIndex((turn) => turn.when !== undefined && matches(turn.when))
  return matched >= 0 ? matched : queue.findIndex((turn) => turn.when === undefined)
}

interface CurrentTurn {
  readonly turn: number
  readonly replies: ReadonlyArray<Reply>
  readonly next: number
  /** The last reply given was cut by the length limit with no tool calls: Hermes asks it to go on. */
  readonly cut: boolean
}

const isCut = (reply: Reply): boolean => reply.finishReason === "length" && (reply.toolCalls ?? []).length === 0

interface StickyError {
  readonly fingerprint: string
  readonly turn: number
  readonly index: number
  readonly reply: Reply
  readonly retriesLeft: number
}

export interface CursorState {
  readonly queue: ReadonlyArray<Turn>
  /** Turns opened so far: the number the next opened turn gets. */
  readonly turnsStarted: number
  readonly current: CurrentTurn | null
  readonly lastError: StickyError | null
}

export const emptyCursor: CursorState = { queue: [], turnsStarted: 0, current: null, lastError: null }

export const appendScript = (state: CursorState, script: Script): CursorState => ({
  ...state,
  queue: [...state.queue, ...script.turns]
})

/** What the control plane reports about a cursor. */
export interface CursorView {
  readonly pendingTurns: number
  readonly turnsStarted: number
  readonly currentTurn: number | null
  readonly repliesLeftInTurn: number
}

export const viewCursor = (state: CursorState): CursorView => ({
  pendingTurns: state.queue.length,
  turnsStarted: state.turnsStarted,
  currentTurn: state.current?.turn ?? null,
  repliesLeftInTurn: state.current === null ? 0 : state.current.replies.length - state.current.next
})

/** Chooses the reply for one main-agent call; returns the choice and the cursor after it. */
export const pickReply = (state: CursorState, call: CursorCall): readonly [Pick, CursorState] => {
  const sticky = state.lastError
  if (sticky !== null && sticky.retriesLeft > 0 && sticky.fingerprint === call.fingerprint()) {
    return [
      { kind: "sticky-error", turn: sticky.turn, index: sticky.index, reply: sticky.reply },
      { ...state, lastError: { ...sticky, retriesLeft: sticky.retriesLeft - 1 } }
    ]
  }
  let next: CursorState = { ...state, lastError: null }
  let skipped = 0
  const opensTurn = call.opensTurn || (call.afterCutReply === true && next.current?.cut !== true)
  if (opensTurn || next.current === null) {
    if (next.current !== null) skipped = next.current.replies.length - next.current.next
    const at = turnFor(next.queue, call.matches)
    const turn = next.queue[at]
    if (turn === undefined) return [{ kind: "exhausted", why: "no-turn-queued" }, { ...next, current: null }]
    const rest = [...next.queue.slice(0, at), ...next.queue.slice(at + 1)]
    next = { ...next, queue: rest, turnsStarted: next.turnsStarted + 1, current: { turn: next.turnsStarted, replies: turn.replies, next: 0, cut: false } }
  }
  const current = next.current as CurrentTurn
  const reply = current.replies[current.next]
  if (reply === undefined) return [{ kind: "exhausted", why: "turn-has-no-reply-left" }, next]
  const index = current.next
  next = { ...next, current: { ...current, next: index + 1, cut: isCut(reply) } }
  if (reply.error !== undefined) {
    next = {
      ...next,
      lastError: { fingerprint: call.fingerprint(), turn: current.turn, index, reply, retriesLeft: modelRetries(reply.error.status) }
    }
  }
  return [{ kind: "reply", turn: current.turn, index, reply, skipped }, next]
}
