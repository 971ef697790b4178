/** Every operation the generator knows; one file each. Commands are used where the emulator routes them. */
import { chatOperation } from "./chat.js"
import { controlOperation } from "./control.js"
import { discoveryOperation } from "./discovery.js"
import { healthOperation } from "./health.js"
import { jobsOperation } from "./jobs.js"
import type { OperationCommands } from "./Operation.js"
import { responsesOperation } from "./responses.js"
import { runsOperation } from "./runs.js"
import { sessionsOperation } from "./sessions.js"
import { toolsOperation } from "./tools.js"

export const OPERATION_COMMANDS: ReadonlyArray<OperationCommands> = [
  healthOperation,
  discoveryOperation,
  runsOperation,
  chatOperation,
  responsesOperation,
  sessionsOperation,
  jobsOperation,
  toolsOperation,
  controlOperation
]
