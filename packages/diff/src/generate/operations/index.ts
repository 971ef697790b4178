/** Every operation the generator knows; one file each. Commands are used where the emulator routes them. */
import { controlOperation } from "./control.js"
import { healthOperation } from "./health.js"
import type { OperationCommands } from "./Operation.js"
import { runsOperation } from "./runs.js"

export const OPERATION_COMMANDS: ReadonlyArray<OperationCommands> = [healthOperation, runsOperation, controlOperation]
