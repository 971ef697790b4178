/**
 * The jobs API's check of a user-written cron prompt (0.19.0 tools/cronjob_tools, described in the
 * emulator's own terms): one allowed GitHub API form (a `token` Authorization header sent to
 * api.github.com) is first rewritten to a plain curl of that host, every occurrence; then invisible
 * Unicode formatting characters are refused outright (a zero-width joiner between two emoji is
 * allowed), then a prompt is refused when it reads as an injection directive, a secret read, an
 * SSH/sudoers backdoor, a recursive delete of /, or a curl/wget that ships a secret-looking shell
 * variable. Answers the 400 text, or "" when the prompt passes.
 * Upstream's patterns are Python `re` with IGNORECASE on str: `\w`, `\s` and `\b` are Unicode-aware
 * and case folds the long s and the Kelvin sign, so the patterns here spell those classes out and
 * carry the `u` flag.
 */
import { PY_SPACE_CLASS_BODY } from "../../python/index.js"
const INVISIBLE: ReadonlyArray<number> = [
  0x200b, 0x200c, 0x200d, 0x2060, 0x2062, 0x2063, 0x2064, 0xfeff, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067,
  0x2068, 0x2069
]

const isEmoji = (cp: number): boolean =>
  (cp >= 0x1f000 && cp <= 0x1ffff) || (cp >= 0x2600 && cp <= 0x27bf) || (cp >= 0x2300 && cp <= 0x23ff) || cp === 0x20e3

/** Drops each ZWJ that sits between emoji (variation selectors skipped). */
const withoutEmojiJoiners = (points: ReadonlyArray<number>): Array<number> =>
  points.filter((cp, i) => {
    if (cp !== 0x200d) return true
    let l = i - 1
    while (l >= 0 && points[l] === 0xfe0f) l--
    let r = i + 1
    while (r < points.length && points[r] === 0xfe0f) r++
    return !(l >= 0 && r < points.length && isEmoji(points[l] as number) && isEmoji(points[r] as number))
  })

/** Python's `\w` on str: letters, digits (every numeric category) and underscore. */
const WORD = String.raw`[\p{L}\p{N}_]`
/** Python's `\s` on str: str.isspace() (python/strip.ts lists the set). */
const SPACE_CHARS = PY_SPACE_CLASS_BODY
const SPACE = `[${SPACE_CHARS}]`
/** Python's `\b`: a word character on exactly one side. */
const BOUNDARY = `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`

/** Python-flavoured source (`\w`, `\s`, `\S`-free) to a case-insensitive Unicode RegExp. */
const pyPattern = (source: string, flags = "iu"): RegExp => new RegExp(source.replace(/\\w/g, WORD).replace(/\\s/g, SPACE), flags)

const SECRET_VAR = String.raw`\$\{?\w*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|API)\w*\}?`
/** A URL's characters: no whitespace, quote or backtick. */
const URL_CHARS = `[^${SPACE_CHARS}"'\x60]*`

/** The one allowed form: a `token` header to api.github.com, with the host a word boundary away. */
const GITHUB_TOKEN_CURL = pyPattern(
  String.raw`curl\s+[^\n]*(?:-H|--header)\s+["']Authorization:\s*token\s+` + SECRET_VAR + String.raw`["']\s+["']?https://api\.github\.com(?:/|` + BOUNDARY + ")"
)
const GITHUB_REWRITE = "curl https://api.github.com/user"

/** [threat id, what it looks like] — each a case-insensitive search, in upstream's order. */
const THREATS: ReadonlyArray<readonly [string, RegExp]> = [
  ["prompt_injection", pyPattern(String.raw`ignore\s+(?:\w+\s+)*(?:previous|all|above|prior)\s+(?:\w+\s+)*instructions`)],
  ["deception_hide", pyPattern(String.raw`do\s+not\s+tell\s+the\s+user`)],
  ["sys_prompt_override", pyPattern(String.raw`system\s+prompt\s+override`)],
  ["disregard_rules", pyPattern(String.raw`disregard\s+(?:your|all|any)\s+(?:instructions|rules|guidelines)`)],
  ["read_secrets", pyPattern(String.raw`cat\s+[^\n]*(?:\.env|credentials|\.netrc|\.pgpass)`)],
  ["ssh_backdoor", pyPattern("authorized_keys")],
  ["sudoers_mod", pyPattern(String.raw`\/etc\/sudoers|visudo`)],
  ["destructive_root_rm", pyPattern(String.raw`rm\s+-rf\s+\/`)],
  ["exfil_curl_url", pyPattern(String.raw`curl\s+[^\n]*https?://` + URL_CHARS + SECRET_VAR)],
  ["exfil_wget_url", pyPattern(String.raw`wget\s+[^\n]*https?://` + URL_CHARS + SECRET_VAR)],
  ["exfil_curl_data", pyPattern(String.raw`curl\s+[^\n]*(?:--data(?:-raw|-binary|-urlencode)?|-d|--form|-F)\s+[^\n]*` + SECRET_VAR)],
  ["exfil_wget_post", pyPattern(String.raw`wget\s+[^\n]*--post-(?:data|file)=[^\n]*` + SECRET_VAR)],
  ["exfil_curl_auth_header", pyPattern(String.raw`curl\s+[^\n]*(?:-H|--header)\s+["']Authorization:\s*(?:Bearer|token)\s+` + SECRET_VAR + `["']`)]
]

/** The allowed GitHub form rewritten away: the first match's text, replaced wherever it occurs. */
const withoutGithubTokenCurl = (prompt: string): string => {
  const found = GITHUB_TOKEN_CURL.exec(prompt)
  return found === null ? prompt : prompt.split(found[0]).join(GITHUB_REWRITE)
}

export const scanCronPrompt = (raw: string): string => {
  const prompt = withoutGithubTokenCurl(raw)
  const points = withoutEmojiJoiners([...prompt].map((ch) => ch.codePointAt(0) ?? 0))
  for (const cp of INVISIBLE) {
    if (points.includes(cp)) {
      return `Blocked: prompt contains invisible unicode U+${cp.toString(16).toUpperCase().padStart(4, "0")} (possible injection).`
    }
  }
  for (const [id, pattern] of THREATS) {
    if (pattern.test(prompt)) {
      return `Blocked: prompt matches threat pattern '${id}'. Cron prompts must not contain injection or exfiltration payloads.`
    }
  }
  return ""
}
