/** `probe`: start the gateway, run the fixed probe tour, write the evidence Markdown, stop. */
import { NodeFileSystem } from "@effect/platform-node"
import { Effect } from "effect"
import { execa } from "execa"
import { mkdir, writeFile } from "node:fs/promises"
import { dirname } from "node:path"
import type { LauncherKind } from "../gateway/Gateway.js"
import { readSourceLock } from "../lock/SourceLock.js"
import { runLiveProbe } from "../probe/liveProbe.js"
import { renderEvidence } from "../probe/renderEvidence.js"
import { oneOf, secondsFlag, UsageError, type Values } from "./args.js"
import { progress, scopedCliGateway } from "./gatewayScope.js"

export const probeCommand = (flags: Values<"probe">) =>
  Effect.gen(function*() {
    const out = flags.out
    if (!out) return yield* new UsageError({ message: "probe needs --out FILE" })
    const launcher = yield* oneOf<LauncherKind>("launcher", flags.launcher, ["process", "container"], "process")
    const readyTimeoutMs = yield* secondsFlag("ready-timeout", flags["ready-timeout"])
    const gw = yield* scopedCliGateway({
      ...(flags.pin ? { pin: flags.pin } : {}),
      launcher,
      ...(flags.source ? { source: flags.source } : {}),
      ...(readyTimeoutMs !== undefined ? { readyTimeoutMs } : {}),
      ...(flags["keep-temp"] === true ? { keepTemp: true } : {})
    })
    const { lock } = yield* Effect.provide(readSourceLock(), NodeFileSystem.layer)
    return yield* Effect.promise(async () => {
      const { exchanges, findings } = await runLiveProbe(gw, progress)
      const python = launcher === "process"
        ? (await execa("python3.11", ["--version"], { reject: false })).stdout.trim()
        : "Debian bookworm python3 (in the image)"
      const md = renderEvidence(
        {
          pin: gw.pin,
          launcher,
          python,
          lockFiles: lock.pins[gw.pin]?.files ?? {},
          recordedAt: new Date().toISOString(),
          command: `npm run oracle-runner -- probe --pin ${gw.pin} --launcher ${launcher} --out ${out}`
        },
        exchanges,
        findings
      )
      await mkdir(dirname(out), { recursive: true })
      await writeFile(out, md)
      progress(`wrote ${out} (${exchanges.length} exchanges)`)
      for (const f of findings) progress(f)
      return 0
    })
  }).pipe(Effect.scoped)
