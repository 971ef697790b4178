/**
 * A place a raw request (a fuzz case: bytes fetch cannot send) is played: the real gateway or the
 * emulator, each on a socket, through the one raw HTTP client (rawHttp/sendRaw.ts). What comes back
 * is an Exchange like any Target's, with the answer's head as it came, so the shared normalizer,
 * differ and register judge it (compare/judgeRuns.ts).
 */
import { Effect } from "effect"
import type { Exchange } from "../exchange/Exchange.js"
import { caseExchange } from "../fuzz/caseExchange.js"
import type { FuzzCase } from "../fuzz/FuzzCase.js"
import { sendCase } from "../rawHttp/sendRaw.js"
import type { TargetInfo } from "./Target.js"

export interface RawTarget {
  readonly info: TargetInfo
  /** Send the case's bytes on a fresh connection; a connection that fails is an Exchange with a transportError. */
  readonly send: (c: FuzzCase) => Effect.Effect<Exchange>
}

export const rawSocketTarget = (info: TargetInfo, port: number, apiKey: string, timeoutMs?: number): RawTarget => ({
  info,
  send: (c) => Effect.map(Effect.promise(() => sendCase(port, c, apiKey, timeoutMs)), (answer) => caseExchange(c, answer))
})
