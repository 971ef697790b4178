/**
 * A web Response whose body is bytes the emulator already holds, for the in-process fetch. Node's
 * Response always wraps its body in a ReadableStream, and making one (a transferable object)
 * costs more than a namespace reset: a Response made and read with `arrayBuffer()` took ~17.5 µs,
 * this one ~3 µs (evidence/benchmarks/README.md). So the stream is made only if someone asks for
 * `body`; from then on a real Response made for it answers everything. Read without it, it
 * behaves as the real one does: once only, then the same TypeError; `text()` without a leading
 * BOM. `blob()` and `formData()` (rare) go through the real Response.
 *
 * The class is made at its first use, not as the module loads: the global Response is Node's
 * undici, which loads as it is first touched (with tls, http2, zlib and worker_threads: ~12 ms),
 * and a CLI start touches none of it.
 */
const decoder = new TextDecoder("utf-8", { ignoreBOM: false })

const makeBytesResponse = () => class BytesResponse extends Response {
  #bytes: Uint8Array
  #used = false
  /** The real Response, once a caller needs the body as a stream (or a form). */
  #real: Response | undefined

  constructor(bytes: Uint8Array, init: ResponseInit) {
    super(null, init)
    this.#bytes = bytes
  }

  #materialized(): Response {
    if (this.#real === undefined) {
      this.#real = new Response(this.#bytes as Uint8Array<ArrayBuffer>, { status: this.status, statusText: this.statusText, headers: this.headers })
      // a body already read stays read: the real one is read too (its stream then disturbed, as after a read)
      if (this.#used) void this.#real.arrayBuffer()
    }
    return this.#real
  }

  /** The bytes, once: later reads reject as a real Response's do. */
  #take(): Promise<Uint8Array> {
    if (this.#used) return Promise.reject(new TypeError("Body is unusable: Body has already been read"))
    this.#used = true
    return Promise.resolve(this.#bytes)
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#materialized().body
  }

  override get bodyUsed(): boolean {
    return this.#real !== undefined ? this.#real.bodyUsed : this.#used
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#real !== undefined) return this.#real.arrayBuffer()
    return this.#take().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer)
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.#real !== undefined) return this.#real.bytes()
    return this.#take().then((b) => new Uint8Array(b) as Uint8Array<ArrayBuffer>)
  }

  override text(): Promise<string> {
    if (this.#real !== undefined) return this.#real.text()
    return this.#take().then((b) => decoder.decode(b))
  }

  override json(): Promise<unknown> {
    if (this.#real !== undefined) return this.#real.json()
    return this.#take().then((b) => JSON.parse(decoder.decode(b)) as unknown)
  }

  // a Blob's type is the Content-Type as fetch serializes a MIME type: the real Response's to make
  override blob(): Promise<Blob> {
    return this.#materialized().blob()
  }

  override formData(): Promise<FormData> {
    return this.#materialized().formData()
  }

  override clone(): Response {
    if (this.#real !== undefined) return this.#real.clone()
    if (this.#used) throw new TypeError("Response.clone: Body has already been consumed.")
    return new BytesResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers: new Headers(this.headers) })
  }
}

let BytesResponse: ReturnType<typeof makeBytesResponse> | undefined

/** A Response of `bytes` (non-empty, with a status that may carry a body). */
export const bytesResponse = (bytes: Uint8Array, init: ResponseInit): Response => new (BytesResponse ??= makeBytesResponse())(bytes, init)
