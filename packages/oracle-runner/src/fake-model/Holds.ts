/**
 * Named holds: a reply with `hold: "h1"` is kept back until `release("h1")`. A release that comes
 * before the call is remembered, so the order of release and call does not matter.
 */
export class Holds {
  private readonly released = new Set<string>()
  private readonly waiting = new Map<string, Array<(released: boolean) => void>>()

  /** Resolves true when released, false when the hold was dropped by reset. */
  wait(name: string): Promise<boolean> {
    if (this.released.has(name)) return Promise.resolve(true)
    return new Promise((resolve) => {
      const list = this.waiting.get(name) ?? []
      list.push(resolve)
      this.waiting.set(name, list)
    })
  }

  /** Returns how many held calls this release let go. */
  release(name: string): number {
    this.released.add(name)
    const list = this.waiting.get(name) ?? []
    this.waiting.delete(name)
    for (const resolve of list) resolve(true)
    return list.length
  }

  cancel(name: string, resolve: (released: boolean) => void): void {
    const list = this.waiting.get(name)
    if (list) this.waiting.set(name, list.filter((r) => r !== resolve))
  }

  /** Names with at least one call waiting. */
  get held(): ReadonlyArray<string> {
    return [...this.waiting.entries()].filter(([, l]) => l.length > 0).map(([n]) => n)
  }

  reset(): void {
    for (const list of this.waiting.values()) for (const resolve of list) resolve(false)
    this.waiting.clear()
    this.released.clear()
  }
}
