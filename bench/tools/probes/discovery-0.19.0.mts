/**
 * Live probe of the discovery routes on the real 0.19.0 gateway. Run against an `oracle-runner up
 * --pin 0.19.0` instance (strict determinism, its own HERMES_HOME):
 *
 *   HERMES_BASE_URL=… API_SERVER_KEY=… FAKE_MODEL_URL=… node --import tsx bench/tools/probes/discovery-0.19.0.mts
 *
 * Writes evidence/cassette-sources/live/discovery-0.19.0.md.
 */
import { writeFileSync } from "node:fs"
import { fakeModel, type ProbeRequest, renderExchange, send, targetFromEnv } from "./probe.mjs"

const t = targetFromEnv()

const cases: ReadonlyArray<[string, ProbeRequest, string?]> = [
  ["GET /health/detailed", { method: "GET", path: "/health/detailed" }],
  ["GET /health/detailed without a key", { method: "GET", path: "/health/detailed", auth: "none" }],
  ["GET /health/detailed with a wrong key", { method: "GET", path: "/health/detailed", auth: "wrong" }],
  ["GET /v1/models", { method: "GET", path: "/v1/models" }],
  ["GET /v1/models with a wrong key", { method: "GET", path: "/v1/models", auth: "wrong" }],
  ["GET /p/other/v1/models (0.19.0 ignores the profile prefix)", { method: "GET", path: "/p/other/v1/models" }],
  ["POST /v1/models (405)", { method: "POST", path: "/v1/models" }],
  ["GET /v1/capabilities", { method: "GET", path: "/v1/capabilities" }],
  ["GET /v1/capabilities without a key", { method: "GET", path: "/v1/capabilities", auth: "none" }],
  ["GET /api/model/options (absent at 0.19.0)", { method: "GET", path: "/api/model/options" }],
  ["GET /v1/skills", { method: "GET", path: "/v1/skills" }],
  ["GET /v1/toolsets", { method: "GET", path: "/v1/toolsets" }, "A fresh gateway: no agent turn has run yet."],
  ["GET /v1/toolsets without a key", { method: "GET", path: "/v1/toolsets", auth: "none" }],
  [
    "GET /v1/models from a disallowed Origin (CORS 403)",
    { method: "GET", path: "/v1/models", headers: { Origin: "http://evil.example" } }
  ],
  ["OPTIONS /v1/chat/completions preflight without CORS origins", {
    method: "OPTIONS",
    path: "/v1/chat/completions",
    headers: { Origin: "http://app.example", "Access-Control-Request-Method": "POST" }
  }]
]

const out: Array<string> = [
  "# Discovery routes — real hermes-agent 0.19.0",
  "",
  `Observed ${new Date().toISOString()} with bench/tools/probes/discovery-0.19.0.mts against \`oracle-runner\``,
  "(process launcher, strict determinism: `platform_toolsets.api_server: []`, no API_SERVER_CORS_ORIGINS,",
  "no API_SERVER_MODEL_NAME, default profile), on a gateway that had served nothing before. Raw responses; the key",
  "is replaced by a placeholder.",
  ""
]
for (const [title, req, note] of cases) {
  const res = await send(t, req)
  out.push(renderExchange(t, title, req, res, note))
}

// Some answers change once the process has run an agent turn: play one, then ask again.
await fakeModel(t, "POST", "/__admin/script", { turns: [{ replies: [{ text: "warm" }] }] })
const warmUp: ProbeRequest = { method: "POST", path: "/v1/chat/completions", body: { messages: [{ role: "user", content: "warm up" }] } }
out.push(renderExchange(t, "POST /v1/chat/completions (the process's first agent turn)", warmUp, await send(t, warmUp)))
const after: ProbeRequest = { method: "GET", path: "/v1/toolsets" }
out.push(renderExchange(t, "GET /v1/toolsets after the first agent turn", after, await send(t, after),
  "The terminal toolset now lists the tools its module registers lazily."))
writeFileSync(new URL("../../../evidence/cassette-sources/live/discovery-0.19.0.md", import.meta.url), out.join("\n"))
process.stdout.write("wrote evidence/cassette-sources/live/discovery-0.19.0.md\n")
