export { DEFAULT_IMAGE, EMULATOR_PORT, HermesEmulatorContainer } from "./HermesEmulatorContainer.js"
export { ContainerStartFailed, startedContainer } from "./HermesEmulatorResource.js"
export { StartedHermesEmulatorContainer } from "./StartedHermesEmulatorContainer.js"
export type { ControlClient, ControlOptions } from "@hermetic/emulator/control-client"
