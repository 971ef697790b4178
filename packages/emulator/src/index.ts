/** Public entry point of @hermetic/emulator. */
export { Emulator, type EmulatorShape, layer, servicesLayer, startEmulator, type RunningEmulator } from "./Emulator.js"
export { type EmulatorOptions, resolveConfig } from "./config/EmulatorConfig.js"
export { DEFAULT_PIN, PINS, type Pin, features, type Features } from "./version/Pins.js"
export { EmuClock, EmuClockFixed, EmuClockLive, makeEmuClock } from "./services/Clock.js"
export { Agent, AgentLive } from "./services/Agent.js"
export { Faults, FaultRule } from "./services/Faults.js"
export { Ids, IdsRandom, IdsSeeded } from "./services/Ids.js"
export { Journal } from "./services/Journal.js"
export { restartNamespace, resetNamespace } from "./admin/AdminRoutes.js"
export { routesFor } from "./routes/RouteTable.js"
/** The Script the emulator plays, re-exported so an embedder needs one import. */
export * from "@hermetic/script"
