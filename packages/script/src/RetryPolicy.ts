/**
 * The one retry policy: which failed model calls Hermes tries again, and how often. The cursor
 * keeps an error reply sticky for exactly these retries; the emulator's agent loop makes the same
 * retry calls through the cursor, so both targets consume a Script alike.
 *
 * Statuses Hermes' error classifier retries are tried three times in all (0.19.0 source; observed
 * live: 404, 429, 500 and 503 three times, 400, 401 and 422 once).
 */
export const isRetriedModelStatus = (status: number): boolean =>
  status === 404 || status === 408 || status === 413 || status === 429 || status >= 500

export const MODEL_CALL_ATTEMPTS_WHEN_RETRIED = 3

/** How many model calls Hermes makes in all for one that fails with `status`. */
export const modelCallAttempts = (status: number): number => (isRetriedModelStatus(status) ? MODEL_CALL_ATTEMPTS_WHEN_RETRIED : 1)

/** How many times Hermes retries a model call that failed with `status`. */
export const modelRetries = (status: number): number => modelCallAttempts(status) - 1
