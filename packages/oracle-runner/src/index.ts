/**
 * @hermetic/oracle-runner — the real pinned Hermes gateway, disposable, with the scripted fake model.
 *
 *   const gw = await startGateway({ pin: "0.19.0" })      // Promise API
 *   gw.script({ turns: [...] }); fetch(`${gw.baseUrl}/v1/runs`, ...); await gw.stop()
 *
 *   Effect.scoped(Effect.flatMap(scopedGateway({ pin: "0.19.0" }), (gw) => ...))   // Effect API (a Gateway: its actions are Effects)
 */
export { resolvePin } from "./gateway/Gateway.js"
export type { Gateway, GatewayHandle, GatewayOptions, GatewayClock, LauncherKind } from "./gateway/Gateway.js"
export { openGateway, scopedGateway, scopedGatewayForkServer, startGateway, withGateway, RealGateway, RealGatewayLayer } from "./gateway/GatewayResource.js"
export type { ForkServer } from "./gateway/ForkServer.js"
export type { Determinism } from "./gateway/hermesHome.js"
export { TOOLS_PROFILE_TOOLSETS } from "./gateway/toolsProfile.js"
export { startFakeModel, scopedFakeModel, fakeModelLayer, FakeModelServer, EXHAUSTED_REPLY_TEXT } from "./fake-model/FakeModelServer.js"
export type { FakeModel, FakeModelOptions } from "./fake-model/FakeModelServer.js"
export type { GatewayControls } from "./fake-model/GatewayControls.js"
export type { JournalEntry } from "./fake-model/Journal.js"
export { defaultLockPath, readSourceLock, SourceLock, Pin } from "./lock/SourceLock.js"
export { PinUnavailable, LockMismatch, MissingTool, GatewayStartFailed, VenvBuildFailed, isOracleError } from "./errors.js"
export type { OracleError } from "./errors.js"
export { probeEngine } from "./container/engine.js"
export type { EngineProbe } from "./container/engine.js"
export { containerCpuSeconds } from "./container/containerCpu.js"
export { guardInterrupts } from "./cli/interruptGuard.js"
export { closest, editDistance } from "@hermetic/script"
