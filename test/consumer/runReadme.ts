/**
 * Runs a README's `consumer` blocks as written (readmeBlocks.ts says how they are marked) in a
 * fresh project outside the repository, against the registry for everything but our packages:
 * those come from the packed tarballs — named ones by path in the install command, the others
 * (dependencies of a named one) through `overrides` in the fresh project's package.json, which
 * stands in for a registry that has them.
 */
import { spawn } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { connect } from "node:net"
import { dirname, join } from "node:path"
import { fencedBlocks, namedPackages, type Packed, rewriteInstall, shellCommands } from "./readmeBlocks.js"

export interface CommandRun {
  readonly block: number
  readonly command: string
  readonly status: number | null
  readonly output: string
}

export interface ReadmeRun {
  readonly project: string
  readonly runs: Array<CommandRun>
  /** What the README's first install command reported: npm's "added N packages". */
  readonly added: number | undefined
  /** Blocks whose `expect` text was not in their output. */
  readonly missing: Array<string>
}

/** The environment of a stranger's shell: this Node first on PATH, no npm_* variables of the `npm run` that started the tests. */
export const strangerEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.toLowerCase().startsWith("npm_") && k !== "INIT_CWD" && k !== "NODE_OPTIONS" && !k.startsWith("VITEST") && k !== "NODE_ENV") env[k] = v
  env["PATH"] = `${dirname(process.execPath)}:${process.env["PATH"] ?? ""}`
  return env
}

interface Started {
  readonly done: Promise<{ status: number | null; output: string }>
  readonly pid: number | undefined
  readonly output: () => string
}

const start = (command: string, cwd: string, timeoutMs: number): Started => {
  // its own process group, so a server and whatever it started stop together
  const child = spawn("bash", ["-c", command], { cwd, env: strangerEnv(), detached: true, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout.on("data", (d: Buffer) => void (output += d.toString()))
  child.stderr.on("data", (d: Buffer) => void (output += d.toString()))
  const timer = setTimeout(() => killGroup(child.pid), timeoutMs)
  const done = new Promise<{ status: number | null; output: string }>((resolve) =>
    child.on("close", (status) => (clearTimeout(timer), resolve({ status, output })))
  )
  return { done, pid: child.pid, output: () => output }
}

const killGroup = (pid: number | undefined) => {
  if (pid === undefined) return
  try {
    process.kill(-pid, "SIGTERM")
  } catch {
    // already gone
  }
}

const portAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port }, () => (socket.destroy(), resolve(true)))
    socket.on("error", () => resolve(false))
  })

/** Until the command ends (a normal command) or `port` answers while it runs (a server, left running). */
const serverOrDone = async (started: Started, port: number): Promise<"server" | { status: number | null; output: string }> => {
  let ended: { status: number | null; output: string } | undefined
  void started.done.then((r) => (ended = r))
  for (;;) {
    if (ended !== undefined) return ended
    if (await portAnswers(port)) return "server"
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** A fresh project for a README: package.json with overrides for the packed packages it does not name. */
const freshProject = (dir: string, name: string, commands: ReadonlyArray<string>, packed: ReadonlyArray<Packed>) => {
  mkdirSync(dir, { recursive: true })
  const named = namedPackages(commands, packed)
  const overrides = Object.fromEntries(packed.filter((p) => !named.has(p.name)).map((p) => [p.name, `file:${p.tarball}`]))
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name, private: true, type: "module", overrides }, null, 2)}\n`)
}

/** The projects the READMEs ran in, by README path (the later checks use the diff's and the emulator's). */
export const readmeProjects = new Map<string, string>()

export const runReadme = async (readmeFile: string, markdown: string, packed: ReadonlyArray<Packed>, root: string): Promise<ReadmeRun> => {
  const blocks = fencedBlocks(markdown)
  const shellOf = (body: string) => shellCommands(body)
  const allCommands = blocks.flatMap((b) => (b.mark.kind === "run" && b.mark.runner === "shell" ? shellOf(b.body) : []))
  const project = join(root, readmeFile.replace(/\//g, "_").replace(/\.md$/i, ""))
  freshProject(project, "readme-consumer", allCommands, packed)
  readmeProjects.set(readmeFile, project)
  const runs: Array<CommandRun> = []
  const missing: Array<string> = []
  const servers: Array<Started> = []
  let added: number | undefined
  try {
    for (const block of blocks) {
      if (block.mark.kind !== "run") continue
      const mark = block.mark
      let blockOutput = ""
      const commands = mark.runner === "shell"
        ? shellOf(block.body).map((c) => rewriteInstall(c, packed))
        : (() => {
            const file = `readme-block-${block.line}${mark.runner === "vitest" ? ".test" : ""}.ts`
            writeFileSync(join(project, file), `${block.body}\n`)
            return [mark.runner === "vitest" ? `npx vitest run ${file}` : `node ${file}`]
          })()
      let serving = false
      for (const command of commands) {
        // until the block's server is up, a command that brings its port up is that server
        const watchPort = mark.serve !== undefined && !serving ? mark.serve : undefined
        if (watchPort !== undefined && (await portAnswers(watchPort))) throw new Error(`port ${watchPort}, which ${readmeFile} serves on, is taken by another process`)
        const started = start(command, project, 600_000)
        const result = watchPort !== undefined ? await serverOrDone(started, watchPort) : await started.done
        if (result === "server") {
          servers.push(started)
          serving = true
          runs.push({ block: block.line, command, status: 0, output: "(serving)" })
          continue
        }
        blockOutput += result.output
        runs.push({ block: block.line, command, status: result.status, output: result.output })
        if (added === undefined && /^npm\s+(i|install)\b/.test(command)) added = Number(/added (\d+) packages?/.exec(result.output)?.[1] ?? Number.NaN)
        if (result.status !== 0) return { project, runs, added, missing }
      }
      for (const s of servers) blockOutput += s.output()
      if (mark.expect !== undefined && !blockOutput.includes(mark.expect)) missing.push(`block at line ${block.line}: "${mark.expect}" not in its output:\n${blockOutput.slice(-2000)}`)
    }
    return { project, runs, added, missing }
  } finally {
    for (const s of servers) {
      killGroup(s.pid)
      await s.done
    }
  }
}
