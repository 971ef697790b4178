/** `down`: stop what `up` started, using the state file; cleans up even when `up` died. */
import { rm } from "node:fs/promises"
import { groupAlive, killGroup } from "../gateway/processGroups.js"
import { clearState, readState, stateFilePath } from "./stateFile.js"
import { isAlive } from "./upCommand.js"
import { execa } from "execa"

const log = (line: string) => process.stderr.write(`[oracle-runner] ${line}\n`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export const downCommand = async (): Promise<number> => {
  const s = await readState()
  if (!s) {
    log(`nothing to stop (no state file at ${stateFilePath()})`)
    return 0
  }
  if (isAlive(s.pid)) {
    log(`asking 'up' (pid ${s.pid}) to stop`)
    process.kill(s.pid, "SIGTERM")
    for (let i = 0; i < 300 && isAlive(s.pid); i++) await sleep(100)
  }
  // If 'up' was killed hard, its gateway group, container and temp dir may still be there.
  if (s.processGroup !== null && groupAlive(s.processGroup)) {
    log(`killing leftover gateway process group ${s.processGroup}`)
    killGroup(s.processGroup, "SIGKILL")
  }
  if (s.container) {
    log(`removing leftover container ${s.container}`)
    await execa("docker", ["rm", "-f", s.container], { reject: false })
  }
  await rm(s.tempRoot, { recursive: true, force: true })
  await clearState()
  log("down")
  return 0
}
