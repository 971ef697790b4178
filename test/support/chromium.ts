/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser): launched headless with
 * the network features that would phone out turned off. `undefined` when it is not installed.
 */
import { existsSync } from "node:fs"
import { type Browser, chromium } from "playwright-core"

export const CHROMIUM = process.env["HERMETIC_CHROMIUM"] ?? "/usr/bin/chromium"

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

export const chromiumMissing = (): string | undefined => (existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is not installed (apt-get install -y chromium)`)

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
