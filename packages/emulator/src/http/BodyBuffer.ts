/**
 * A request body on its way in, up to the size limit: the first MiB in memory, the rest in an
 * anonymous temporary file. aiohttp holds up to its 10 MB limit in memory; so did the emulator,
 * and ten concurrent 400 MiB uploads then held 5 × 10 MB at once (RSS +68.6 MiB, over the 50 MiB
 * target). A body over a MiB is rare, and reading it back is one sequential read.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** Held in memory before the rest goes to the file. */
export const IN_MEMORY_BYTES = 1 << 20

let files = 0

export class BodyBuffer {
  private readonly head: Array<Buffer> = []
  private headBytes = 0
  private fd: number | undefined
  /** Set only where the open file could not be unlinked at once. */
  private leftover: string | undefined
  private fileBytes = 0

  get size(): number {
    return this.headBytes + this.fileBytes
  }

  add(chunk: Buffer): void {
    if (this.fd === undefined && this.headBytes + chunk.byteLength <= IN_MEMORY_BYTES) {
      this.head.push(chunk)
      this.headBytes += chunk.byteLength
      return
    }
    if (this.fd === undefined) {
      const path = join(tmpdir(), `hermetic-body-${process.pid}-${files++}`)
      this.fd = openSync(path, "wx+", 0o600)
      // gone from the directory at once: the descriptor keeps it until closed, even on a crash
      try {
        unlinkSync(path)
      } catch {
        this.leftover = path
      }
    }
    writeSync(this.fd, chunk)
    this.fileBytes += chunk.byteLength
  }

  /** The whole body, in one piece; the buffer is empty afterwards. */
  bytes(): Uint8Array {
    const out = new Uint8Array(this.size)
    const view = Buffer.from(out.buffer)
    let at = 0
    for (const c of this.head) at += c.copy(view, at)
    if (this.fd !== undefined) {
      let read = 0
      while (read < this.fileBytes) read += readSync(this.fd, view, at + read, this.fileBytes - read, read)
    }
    this.discard()
    return out
  }

  discard(): void {
    this.head.length = 0
    this.headBytes = 0
    this.fileBytes = 0
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
    if (this.leftover !== undefined) unlinkSync(this.leftover)
    this.leftover = undefined
  }
}
