/**
 * oracle-runner CLI entry: the program on @effect/platform-node's runtime. SIGINT and SIGTERM
 * interrupt the command; a started gateway is stopped as its scope closes.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Exit } from "effect"
import { guardInterrupts } from "./interruptGuard.js"
import { program } from "./program.js"

guardInterrupts()
NodeRuntime.runMain(program(process.argv.slice(2)), {
  // interrupted by a signal: 'up' stopping on Ctrl-C is its normal end
  teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) ? exit.value as number : Cause.isInterruptedOnly(exit.cause) ? 0 : 1)
})
