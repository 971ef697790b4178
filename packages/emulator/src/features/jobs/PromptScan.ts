/**
 * The jobs API's check of a user-written cron prompt (0.19.0 tools/cronjob_tools, described in the
 * emulator's own terms): invisible Unicode formatting characters are refused outright (a zero-width
 * joiner between two emoji is allowed), then a prompt is refused when it reads as an injection
 * directive, a secret read, an SSH/sudoers backdoor, a recursive delete of /, or a curl/wget that
 * ships a secret-looking shell variable. Answers the 400 text, or "" when the prompt passes.
 * (Upstream first rewrites one allowed GitHub API curl form; the emulator does not special-case it.)
 */
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

const SECRET_VAR = String.raw`\$\{?\w*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|API)\w*\}?`

/** [threat id, what it looks like] — each a case-insensitive search. */
const THREATS: ReadonlyArray<readonly [string, RegExp]> = [
  ["prompt_injection", /ignore\s+(?:\w+\s+)*(?:previous|all|above|prior)\s+(?:\w+\s+)*instructions/i],
  ["deception_hide", /do\s+not\s+tell\s+the\s+user/i],
  ["sys_prompt_override", /system\s+prompt\s+override/i],
  ["disregard_rules", /disregard\s+(?:your|all|any)\s+(?:instructions|rules|guidelines)/i],
  ["read_secrets", /cat\s+[^\n]*(?:\.env|credentials|\.netrc|\.pgpass)/i],
  ["ssh_backdoor", /authorized_keys/i],
  ["sudoers_mod", /\/etc\/sudoers|visudo/i],
  ["destructive_root_rm", /rm\s+-rf\s+\//i],
  ["exfil_curl_url", new RegExp(String.raw`curl\s+[^\n]*https?://[^\s"'\x60]*` + SECRET_VAR, "i")],
  ["exfil_wget_url", new RegExp(String.raw`wget\s+[^\n]*https?://[^\s"'\x60]*` + SECRET_VAR, "i")],
  ["exfil_curl_data", new RegExp(String.raw`curl\s+[^\n]*(?:--data(?:-raw|-binary|-urlencode)?|-d|--form|-F)\s+[^\n]*` + SECRET_VAR, "i")],
  ["exfil_wget_post", new RegExp(String.raw`wget\s+[^\n]*--post-(?:data|file)=[^\n]*` + SECRET_VAR, "i")],
  ["exfil_curl_auth_header", new RegExp(String.raw`curl\s+[^\n]*(?:-H|--header)\s+["']Authorization:\s*(?:Bearer|token)\s+` + SECRET_VAR + `["']`, "i")]
]

export const scanCronPrompt = (prompt: string): string => {
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
