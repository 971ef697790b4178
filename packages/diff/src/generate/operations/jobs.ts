/**
 * /api/jobs: create (valid and rejected schedules), read, list, pause, resume, update, delete.
 * Listing is comparable because no scenario leaves a job behind (see scenarioArbitrary's cleanUp).
 * "run now" is left out: it plays through the cron scheduler asynchronously, with no settle point
 * a scenario can wait for on both sides yet.
 */
import * as fc from "fast-check"
import type { JsonValue } from "../../json/JsonValue.js"
import { newAlias, pickEntity } from "../GenModel.js"
import { command, type OperationCommands } from "./Operation.js"

const SCHEDULES = ["every 30m", "every 2h", "0 9 * * *", "2h", "*/15 * * * *"]
const REJECTED: ReadonlyArray<JsonValue> = [{ name: "bad", schedule: "whenever" }, { schedule: "1h" }, { name: "no schedule", prompt: "x" }, { name: "", schedule: "1h", prompt: "x" }]
const jobPath = (alias: string, suffix = "") => `/api/jobs/{${alias}.job.id}${suffix}`

export const jobsOperation: OperationCommands = {
  id: "jobs",
  requiresRoutes: ["jobs.list", "jobs.create", "jobs.get", "jobs.update", "jobs.delete", "jobs.pause", "jobs.resume"],
  commands: () => [
    fc.constantFrom(...SCHEDULES).map((schedule) =>
      command(`createJob(${schedule})`, () => true, (m, b) => {
        const alias = newAlias(m, "j")
        b.add({ request: { method: "POST", path: "/api/jobs", body: { name: `job ${m.aliasCount}`, schedule, prompt: "do the thing" } }, as: alias })
        m.jobs.push({ alias, deleted: false })
      })
    ),
    fc.constant(command("listJobs", () => true, (_m, b) => b.add({ request: { method: "GET", path: "/api/jobs" } }))),
    fc.constantFrom(...REJECTED).map((body) => command(`createJobRejected(${JSON.stringify(body)})`, () => true, (_m, b) => b.add({ request: { method: "POST", path: "/api/jobs", body } }))),
    fc.record({ pick: fc.nat(), action: fc.constantFrom("get", "pause", "resume", "patch", "delete") }).map(({ pick, action }) =>
      command(`job(${action})`, (m) => m.jobs.length > 0, (m, b) => {
        const j = pickEntity(m.jobs, pick, true)
        if (j === undefined) return
        if (action === "get") b.add({ request: { method: "GET", path: jobPath(j.alias) } })
        else if (action === "patch") b.add({ request: { method: "PATCH", path: jobPath(j.alias), body: { prompt: "changed" } } })
        else if (action === "delete") {
          b.add({ request: { method: "DELETE", path: jobPath(j.alias) } })
          j.deleted = true
        } else b.add({ request: { method: "POST", path: jobPath(j.alias, `/${action}`) } })
      })
    )
  ]
}
