/**
 * Every service the route table's handlers need: the app's (http/Route.ts) and the services a
 * feature owns (`Runs`). The foundation cannot name a feature's service, so the union is drawn here.
 */
import type { AppServices } from "./http/Route.js"
import type { Runs } from "./features/runs/Runs.js"

export type EmulatorServices = AppServices | Runs
