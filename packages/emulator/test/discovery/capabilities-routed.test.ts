/**
 * Every endpoint GET /v1/capabilities advertises is routed, on both pins: the route table has the
 * same method and path template, and a request to it (placeholders filled in) is answered by that
 * route, never by the unrouted-path 404.
 */
import { describe, expect, it } from "vitest"
import { PINS } from "../../src/index.js"
import { openClients } from "../support.js"

const open = openClients()

const UNROUTED_404_BODY = "404: Not Found"

describe.each(PINS)("capabilities on %s", (pin) => {
  it("advertise only routed endpoints", async () => {
    const c = await open({ hermesVersion: pin })
    const caps = await c.json("GET", "/v1/capabilities")
    const endpoints = Object.entries(caps.body["endpoints"] as Record<string, { method: string; path: string }>)
    expect(endpoints.length).toBeGreaterThan(10)
    for (const [name, { method, path }] of endpoints) {
      const concrete = path.replace(/\{[a-z_]+\}/g, "hermetic-probe")
      const res = await c.request(method, concrete, method === "GET" || method === "DELETE" ? {} : { body: {} })
      const text = await res.text()
      expect({ name, method, path, unrouted: res.status === 404 && text === UNROUTED_404_BODY }).toEqual({ name, method, path, unrouted: false })
      expect({ name, status: res.status }).not.toEqual({ name, status: 405 })
    }
  })
})
