/** `probe`: start the gateway, run the fixed probe tour, write the evidence Markdown, stop. */
import { mkdir, writeFile } from "node:fs/promises"
import { dirname } from "node:path"
import { startGateway, type LauncherKind } from "../gateway/Gateway.js"
import { readSourceLock } from "../lock/SourceLock.js"
import { runLiveProbe } from "../probe/liveProbe.js"
import { renderEvidence } from "../probe/renderEvidence.js"
import { checkKnown, flagString, UsageError, type Args } from "./args.js"
import { execa } from "execa"

export const PROBE_FLAGS = ["pin", "launcher", "source", "out", "keep-temp", "ready-timeout"]

const progress = (line: string) => process.stderr.write(`[oracle-runner] ${line}\n`)

export const probeCommand = async (args: Args, known: ReadonlyArray<string>): Promise<number> => {
  checkKnown(args, known)
  const out = flagString(args, "out")
  if (!out) throw new UsageError("probe needs --out FILE")
  const launcher = (flagString(args, "launcher") ?? "process") as LauncherKind
  const pin = flagString(args, "pin")
  const source = flagString(args, "source")
  const gw = await startGateway({
    ...(pin ? { pin } : {}),
    launcher,
    ...(source ? { source } : {}),
    ...(args.flags.has("keep-temp") ? { keepTemp: true } : {}),
    progress
  })
  try {
    const { exchanges, findings } = await runLiveProbe(gw, progress)
    const { lock } = await readSourceLock()
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
  } finally {
    await gw.stop()
  }
}
