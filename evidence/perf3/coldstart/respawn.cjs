// The floor of any start that re-spawns node to pass it flags (a V8 startup snapshot's
// --snapshot-blob, for one): a parent node whose only work is spawning the empty server (empty.cjs).
const { spawn } = require("node:child_process")
const { join } = require("node:path")
const child = spawn(process.execPath, [join(__dirname, "empty.cjs"), ...process.argv.slice(2)], { stdio: "inherit" })
for (const s of ["SIGINT", "SIGTERM"]) process.on(s, () => child.kill(s))
child.on("exit", (code) => process.exit(code ?? 0))
