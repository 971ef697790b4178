/** hermes-emulator entry: the program on @effect/platform-node's runtime (signals interrupt it; the server closes with its scope). */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Exit } from "effect"
import { program } from "./program.js"

NodeRuntime.runMain(program(process.argv.slice(2)), {
  // a signal ending `serve` is its normal end
  teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) ? exit.value as number : Cause.isInterruptedOnly(exit.cause) ? 0 : 1)
})
