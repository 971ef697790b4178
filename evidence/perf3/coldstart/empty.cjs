// bench/suites.ts' empty server: node:http answering "ok" (node's own start, the cold-start baseline)
const port = Number(process.argv[process.argv.indexOf("--port") + 1]);
require("node:http").createServer((q, s) => s.end("ok")).listen(port, "127.0.0.1")
