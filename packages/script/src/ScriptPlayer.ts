/**
 * One namespace's Script, played: the cursor, its holds, and the classification of each model
 * call. The emulator's Agent service keeps one per namespace; the fake model keeps one. Both ask
 * it for the answer to every model call, so they answer alike by construction.
 */
import { Data, Effect } from "effect"
import { makeHolds } from "./Holds.js"
import { callFingerprint, classifyModelCall, type Housekeeping, housekeepingText, type ModelCall } from "./ModelCall.js"
import { EXHAUSTED_REPLY_TEXT, HOUSEKEEPING_REPLY_TEXT, type Reply, type Script } from "./Script.js"
import type { ReceivedCall } from "./ReceivedCalls.js"
import { appendScript, type CursorView, emptyCursor, type Pick, pickReply, viewCursor } from "./ScriptCursor.js"
import { ALL_WHEN_FIELDS, unseenWhenFields, type WhenField, whenMatches } from "./When.js"

/** A Script this player cannot play as another player would: it conditions on what this one cannot see. */
export class ScriptRefused extends Data.TaggedError("ScriptRefused")<{ readonly message: string }> {}

export interface ScriptPlayerOptions {
  /** The `when` fields this player can honour (default: all — the emulator sees every one). */
  readonly sees?: ReadonlyArray<WhenField>
  /** Who this player is, for the refusal message ("the fake model"). */
  readonly name?: string
}

export type AnswerSource = Pick | { readonly kind: "housekeeping"; readonly task: Housekeeping }

export interface Answer {
  /** Where the reply came from (the journal records it). */
  readonly source: AnswerSource
  /** What the model says to the call. */
  readonly reply: Reply
  /** A hold to wait on before replying: only a Script reply's first attempt (a sticky-error retry is not held again). */
  readonly hold: string | undefined
  /**
   * The ids of the reply's tool calls: the Script's own, else named after the Script turn and
   * reply (`call_hermetic_<turn>_<reply>_<i>`), so both targets send the same ids.
   */
  readonly toolCallIds: ReadonlyArray<string>
}

export interface PlayerView extends CursorView {
  /** Holds a call waits on right now. */
  readonly heldCalls: ReadonlyArray<string>
}

export interface ScriptPlayer {
  /** Appends a Script's turns; returns how many turns are pending. Refuses `when` fields it cannot see. */
  readonly append: (script: Script) => Effect.Effect<number, ScriptRefused>
  readonly answer: (call: ModelCall) => Effect.Effect<Answer>
  /** Waits for a hold: true when released, false when a reset dropped it. */
  readonly awaitHold: (name: string) => Effect.Effect<boolean>
  /** Releases a hold; returns how many waiting calls it let go. */
  readonly release: (name: string) => Effect.Effect<number>
  readonly view: Effect.Effect<PlayerView>
  /** Every call answered since the last reset, oldest first, with its messages as received. */
  readonly received: Effect.Effect<ReadonlyArray<ReceivedCall>>
  /** Forgets the Script, its position and the calls received; lets held calls go as dropped. */
  readonly reset: Effect.Effect<void>
}

const EXHAUSTED: Reply = { text: EXHAUSTED_REPLY_TEXT }

export const answerOfPick = (pick: Pick): Answer =>
  pick.kind === "exhausted"
    ? { source: pick, reply: EXHAUSTED, hold: undefined, toolCallIds: [] }
    : {
      source: pick,
      reply: pick.reply,
      hold: pick.kind === "reply" ? pick.reply.hold : undefined,
      toolCallIds: (pick.reply.toolCalls ?? []).map((call, i) => call.id ?? `call_hermetic_${pick.turn}_${pick.index}_${i}`)
    }

export const makeScriptPlayer = (options: ScriptPlayerOptions = {}): ScriptPlayer => {
  let cursor = emptyCursor
  let received: Array<ReceivedCall> = []
  const holds = makeHolds()
  const sees = options.sees ?? ALL_WHEN_FIELDS
  return {
    append: (script) =>
      Effect.suspend(() => {
        const unseen = unseenWhenFields(script.turns, sees)
        if (unseen.length > 0) {
          const who = options.name ?? "this player"
          return Effect.fail(
            new ScriptRefused({ message: `${who} cannot see ${unseen.map((f) => `when.${f}`).join(", ")} of a model call; it honours ${sees.map((f) => `when.${f}`).join(", ")}` })
          )
        }
        cursor = appendScript(cursor, script)
        return Effect.succeed(cursor.queue.length)
      }),
    answer: (call) =>
      Effect.sync((): Answer => {
        const kind = classifyModelCall(call)
        received.push({ kind: kind.kind === "housekeeping" ? kind.task : "main", messages: call.wire ?? call.messages })
        if (kind.kind === "housekeeping") {
          const text = housekeepingText(call, kind.task, HOUSEKEEPING_REPLY_TEXT)
          return { source: { kind: "housekeeping", task: kind.task }, reply: { text }, hold: undefined, toolCallIds: [] }
        }
        const [pick, next] = pickReply(cursor, {
          opensTurn: kind.kind === "opens-turn",
          afterCutReply: kind.kind === "continues-turn" && kind.continuation === "length_continuation",
          fingerprint: () => callFingerprint(call),
          matches: (when) => whenMatches(when, call)
        })
        cursor = next
        return answerOfPick(pick)
      }),
    awaitHold: holds.wait,
    release: holds.release,
    view: Effect.map(holds.waiting, (heldCalls) => ({ ...viewCursor(cursor), heldCalls })),
    received: Effect.sync(() => [...received]),
    reset: Effect.suspend(() => {
      cursor = emptyCursor
      received = []
      return holds.reset
    })
  }
}
