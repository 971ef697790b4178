/** @hermetic/script — the Script schema, the one Script cursor, holds, and the control-plane wire shapes. */
export * from "./Script.js"
export * from "./RetryPolicy.js"
export * from "./ModelCall.js"
export * from "./ScriptCursor.js"
export * from "./Holds.js"
export * from "./ScriptPlayer.js"
export * from "./ControlPlane.js"
export * from "./ControlPlaneGuard.js"
