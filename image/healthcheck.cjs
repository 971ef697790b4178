// The image's HEALTHCHECK: GET /health on the port the emulator listens on (API_SERVER_PORT), with
// node itself, so the image needs no curl. Exit 0 on a 200 within 2 s, 1 otherwise.
"use strict"
const http = require("node:http")

const port = Number(process.env.API_SERVER_PORT || 8642)
const request = http.get({ host: "127.0.0.1", port, path: "/health", timeout: 2000 }, (response) => {
  response.resume()
  process.exit(response.statusCode === 200 ? 0 : 1)
})
request.on("timeout", () => request.destroy(new Error("timed out")))
request.on("error", (error) => {
  process.stderr.write(`healthcheck: ${error.message}\n`)
  process.exit(1)
})
