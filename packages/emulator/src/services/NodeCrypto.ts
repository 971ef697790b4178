/**
 * node:crypto, loaded at its first use rather than when the emulator's code loads: its 17 modules
 * cost every start ~1.9 ms, and neither a start nor /health uses them (ids, hashes and key checks
 * come with the first requests that need them).
 */
let loaded: typeof import("node:crypto") | undefined

export const nodeCrypto = (): typeof import("node:crypto") => (loaded ??= process.getBuiltinModule("node:crypto"))
