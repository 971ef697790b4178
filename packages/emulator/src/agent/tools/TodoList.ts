/**
 * The `todo` tool as Hermes 0.19.0 runs it: one in-memory list per agent (a fresh agent per request
 * on the API server, its list rebuilt from the history: TodoHydration.ts), written whole or merged by
 * id, and every call answers the full list with a summary of counts. Behaviour read from the pinned
 * source and matched live (scenarios/tools/).
 */
import { Either } from "effect"
import { isDict, noAttribute, pyDumps, pyJsonLoads, pyStr, pyStrip, pyTruthy, pyTypeName, toHandlerValue } from "../../python/index.js"
import { ToolRaised } from "./ToolRaised.js"

const STATUSES = ["pending", "in_progress", "completed", "cancelled"] as const
const MAX_CONTENT = 4000
const MAX_ITEMS = 256
const TRUNCATED = "… [truncated]"

export interface TodoItem {
  id: string
  content: string
  status: string
}

const capContent = (content: string): string => {
  const chars = [...content]
  return chars.length > MAX_CONTENT ? chars.slice(0, MAX_CONTENT - [...TRUNCATED].length).join("") + TRUNCATED : content
}

const text = (v: unknown, fallback: string): string => (v === undefined ? fallback : pyStr(v))

const validStatus = (v: string): boolean => (STATUSES as ReadonlyArray<string>).includes(v)

/** A written item, cleaned: an id ("?" when blank), a description, a known status. */
const normalizeItem = (item: unknown): TodoItem => {
  if (!isDict(item)) return { id: "?", content: "(invalid item)", status: "pending" }
  const id = pyStrip(text(item["id"], "")) || "?"
  const raw = pyStrip(text(item["content"], ""))
  const status = pyStrip(text(item["status"], "pending")).toLowerCase()
  return { id, content: raw === "" ? "(no description)" : capContent(raw), status: validStatus(status) ? status : "pending" }
}

/**
 * Duplicate ids collapse to their last occurrence, at that occurrence's position. A non-dict item is
 * keyed `__invalid_<index>`, a key a dict's id can take too (then only the later of the two stays).
 */
const lastOccurrences = (todos: ReadonlyArray<unknown>): Array<unknown> => {
  const last = new Map<string, number>()
  todos.forEach((item, i) => last.set(isDict(item) ? pyStrip(text(item["id"], "")) || "?" : `__invalid_${i}`, i))
  return [...last.values()].sort((a, b) => a - b).map((i) => todos[i])
}

export class TodoList {
  private items: Array<TodoItem> = []

  /**
   * Replace the list or merge into it. Merging reads each item with `.get`, so an item that is not a
   * dict raises AttributeError there: the items merged before it stay changed, the rest is skipped.
   */
  write(todos: ReadonlyArray<unknown>, merge: boolean): Either.Either<void, ToolRaised> {
    if (!merge) {
      this.items = lastOccurrences(todos).map(normalizeItem)
    } else {
      const byId = new Map(this.items.map((i) => [i.id, i]))
      for (const t of lastOccurrences(todos)) {
        if (!isDict(t)) return Either.left(new ToolRaised({ message: noAttribute(t, "get") }))
        const id = pyStrip(text(t["id"], ""))
        if (id === "") continue
        const existing = byId.get(id)
        if (existing !== undefined) {
          if (pyTruthy(t["content"])) existing.content = capContent(pyStrip(pyStr(t["content"])))
          if (pyTruthy(t["status"])) {
            const status = pyStrip(pyStr(t["status"])).toLowerCase()
            if (validStatus(status)) existing.status = status
          }
        } else {
          const item = normalizeItem(t)
          byId.set(item.id, item)
          this.items.push(item)
        }
      }
      const seen = new Set<string>()
      this.items = this.items.flatMap((item) => {
        const current = byId.get(item.id) ?? item
        if (seen.has(current.id)) return []
        seen.add(current.id)
        return [current]
      })
    }
    if (this.items.length > MAX_ITEMS) this.items = this.items.slice(0, MAX_ITEMS)
    return Either.void
  }

  /** The tool's JSON answer: the whole list and how many items are in each status. */
  answer(): string {
    const count = (s: string) => this.items.filter((i) => i.status === s).length
    return pyDumps(
      {
        todos: this.items.map((i) => ({ id: i.id, content: i.content, status: i.status })),
        summary: {
          total: this.items.length,
          pending: count("pending"),
          in_progress: count("in_progress"),
          completed: count("completed"),
          cancelled: count("cancelled")
        }
      },
      false
    )
  }
}

/** `{"error": ...}`: the shape of a tool's refusal. */
export const toolError = (message: string): string => pyDumps({ error: message }, false)

/**
 * One call of the todo tool against the agent's list. `todos` given as a string is read with
 * json.loads ("NaN" is a float, so "got float"); merge is whatever Python's truthiness makes of it.
 */
export const callTodo = (list: TodoList, args: Record<string, unknown>): Either.Either<string, ToolRaised> => {
  let todos = args["todos"]
  if (todos !== undefined && todos !== null) {
    if (typeof todos === "string") {
      const parsed = pyJsonLoads(todos)
      if (parsed._tag === "Left") return Either.right(toolError("todos must be a list of objects, got unparseable string"))
      todos = toHandlerValue(parsed.right)
    }
    if (!Array.isArray(todos)) return Either.right(toolError(`todos must be a list, got ${pyTypeName(todos)}`))
    const written = list.write(todos, pyTruthy(args["merge"]))
    if (Either.isLeft(written)) return Either.left(written.left)
  }
  return Either.right(list.answer())
}
