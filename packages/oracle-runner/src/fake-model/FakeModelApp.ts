/**
 * The fake model's HTTP surface as one platform HttpApp: the OpenAI-compatible routes Hermes
 * calls, the control plane, and 404 for everything else (Hermes' local-server probes: /api/tags,
 * /props, /version, ... — a 404 keeps Hermes in plain OpenAI-compatible mode).
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { ADMIN_PREFIX } from "@hermetic/script"
import { Effect } from "effect"
import { chatCompletions } from "./ChatCompletions.js"
import { controlPlane } from "./ControlPlane.js"
import type { FakeModelState } from "./FakeModelState.js"
import { pathOf } from "./paths.js"

export const makeFakeModelApp = (state: FakeModelState) => {
  const chat = chatCompletions(state)
  const admin = controlPlane(state)
  const models = Effect.sync(() => {
    const entry = state.journal.open({ method: "GET", path: "/v1/models", kind: "models", status: 200, reply: { source: "static" } })
    entry.outcome = "sent"
    return HttpServerResponse.unsafeJson({ object: "list", data: [{ id: state.settings.model, object: "model", created: 0, owned_by: "hermetic" }] })
  })
  const notFound = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const path = pathOf(request)
    const entry = state.journal.open({ method: request.method, path, kind: "probe", status: 404, reply: { source: "static" } })
    entry.outcome = "sent"
    return HttpServerResponse.unsafeJson(
      { error: { message: `hermetic fake model has no ${path}`, type: "not_found", param: null, code: null } },
      { status: 404 }
    )
  })
  return HttpRouter.empty.pipe(
    HttpRouter.post("/v1/chat/completions", chat),
    HttpRouter.post("/chat/completions", chat),
    HttpRouter.get("/v1/models", models),
    HttpRouter.all(`${ADMIN_PREFIX}/*`, admin),
    HttpRouter.all("*", notFound)
  )
}
