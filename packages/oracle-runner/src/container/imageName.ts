/** The locally built image for a PyPI pin is named after the pin and its lock entry, so a lock change builds anew. */
import type { Pin } from "../lock/SourceLock.js"
import { pinHash } from "../venv/HermesVenv.js"

export const BASE_IMAGE = process.env["HERMETIC_BASE_IMAGE"] ?? "local/hermetic-debian:bookworm"

export const imageTagFor = (pinName: string, pin: Pin): string => `local/hermetic-hermes:${pinName}-${pinHash(pin)}`
