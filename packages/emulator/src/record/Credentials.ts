/**
 * The credentials a proxy sees pass by (bearer tokens, x-api-key values): each becomes a literal
 * secret the redactor removes wherever it appears, also in bodies that echo it.
 */
import { makeRedactor, type Redactor } from "../journal/Redaction.js"

export const makeCredentialRedactor = () => {
  const seen = new Set<string>()
  let redactor = makeRedactor()
  return {
    /** Learns the credentials of a request's headers; returns the redactor that knows them all. */
    observe: (headers: Readonly<Record<string, string | undefined>>): Redactor => {
      const before = seen.size
      const auth = headers["authorization"]?.replace(/^\s*(Bearer|Basic)\s+/i, "").trim()
      for (const value of [auth, headers["x-api-key"]?.trim()]) if (value !== undefined && value !== "") seen.add(value)
      if (seen.size !== before) redactor = makeRedactor([...seen])
      return redactor
    }
  }
}
