/** The JSON Schema of the evidence file, generated from the Evidence Schema (committed under packages/diff/schema/). */
import { JSONSchema } from "effect"
import { Evidence } from "./Evidence.js"
import { Cassette } from "../cassette/Cassette.js"

export const evidenceJsonSchema = () => JSONSchema.make(Evidence)
export const cassetteJsonSchema = () => JSONSchema.make(Cassette)

export const schemaDir = () => new URL("../../schema/", import.meta.url).pathname
