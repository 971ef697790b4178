/**
 * Every committed cassette replayed against the emulator in process, offline: no socket, no
 * gateway (replayCommittedCassettes.ts says what fails a cassette).
 */
import { emulatorInProcessTarget } from "../src/target/EmulatorTargets.js"
import { replayCommittedCassettes } from "./replayCommittedCassettes.js"

replayCommittedCassettes("committed cassettes replay against the emulator", emulatorInProcessTarget)
