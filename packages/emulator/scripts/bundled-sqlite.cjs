// What `better-sqlite3` is inside the CLI bundle (scripts/bundle.mjs puts this file in its place).
// Requiring the installed package at start-up cost ~4 ms (a dozen files resolved, read and compiled
// with no code cache) and its first `new Database` ~3 ms more (the `bindings` package searching
// the file system for the native addon). Here its JavaScript is part of the bundle, so of the
// launcher's code cache, and the addon is loaded by its path. Only when the installed package is
// the version bundled (the JavaScript and the addon must match); any other install, or an addon
// elsewhere than build/Release, gets the installed package as it is.
const { existsSync, readFileSync } = require("node:fs")
const { dirname, join } = require("node:path")

const BUNDLED_VERSION = require("better-sqlite3/package.json").version

const installedAddon = () => {
  try {
    const manifest = require.resolve("better-sqlite3/package.json")
    if (JSON.parse(readFileSync(manifest, "utf8")).version !== BUNDLED_VERSION) return undefined
    const compiled = join(dirname(manifest), "build", "Release", "better_sqlite3.node")
    if (existsSync(compiled)) return compiled
    if (process.platform === "linux" && /\/ld-musl-[^/\s]*\.so/.test(readFileSync("/proc/self/maps", "latin1"))) return undefined
    const prebuilt = join(dirname(manifest), "prebuilds", `${process.platform}-${process.arch}.node`)
    return existsSync(prebuilt) ? prebuilt : undefined
  } catch {
    return undefined
  }
}

const addon = installedAddon()
if (addon === undefined) {
  module.exports = require("better-sqlite3?installed")
} else {
  const Database = require("better-sqlite3?bundled")
  /** better-sqlite3's Database, told where its addon is unless the caller says otherwise. */
  function BundledDatabase(filename, options) {
    return new Database(filename, { nativeBinding: addon, ...options })
  }
  BundledDatabase.prototype = Database.prototype
  module.exports = Object.assign(BundledDatabase, Database)
}
