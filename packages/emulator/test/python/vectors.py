"""Emit python-vectors.jsonl: CPython's own answers for json.loads/json.dumps/repr/strip.

Expected outputs in the TS tests come only from here (never hand-written).
Deterministic: fixed seed, so re-running on the same CPython reproduces the file.
Run: python3 packages/emulator/test/python/vectors.py
"""
import json
import os
import random
import struct
import sys

rng = random.Random(20240611)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python-vectors.jsonl")

# ---------------------------------------------------------------- text generator
CHAR_POOLS = [
    lambda: chr(rng.randint(0x20, 0x7E)),
    lambda: chr(rng.randint(0x00, 0x1F)),
    lambda: chr(rng.randint(0x7F, 0xFF)),
    lambda: chr(rng.randint(0x100, 0xD7FF)),
    lambda: chr(rng.randint(0xE000, 0xFFFF)),
    lambda: chr(rng.randint(0x10000, 0x10FFFF)),
    lambda: chr(rng.choice([0x1F600, 0x10000, 0x10FFFF, 0xE0001, 0x1F6DC, 0x31350])),
    lambda: chr(rng.randint(0xD800, 0xDFFF)),  # lone surrogate: only ever escaped
    lambda: rng.choice("'\"\\/ \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000\ufeff\xad\u200b"),
]


def gen_char_text():
    c = CHAR_POOLS[rng.randrange(len(CHAR_POOLS))]()
    o = ord(c)
    short = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f", "/": "\\/"}
    must_escape = o < 0x20 or c in '"\\' or 0xD800 <= o <= 0xDFFF
    if must_escape or rng.random() < 0.15:
        if c in short and rng.random() < 0.6:
            return short[c]
        if o > 0xFFFF:
            o -= 0x10000
            hi, lo = 0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)
            fmt = rng.choice(["\\u%04x\\u%04x", "\\u%04X\\u%04X"])
            return fmt % (hi, lo)
        return rng.choice(["\\u%04x", "\\u%04X"]) % o
    return c


def gen_string_text():
    n = rng.choice([0, 1, 2, 3, 5, 8, 13])
    return '"' + "".join(gen_char_text() for _ in range(n)) + '"'


KEYS = ["a", "b", "id", "model", "1", "10", "2", "", "é", "\U0001F600", "\uffff", "B", "_", "__proto__"]


def gen_key_text():
    if rng.random() < 0.6:
        return json.dumps(rng.choice(KEYS), ensure_ascii=rng.random() < 0.5)
    return gen_string_text()


def digits(n, lead_nonzero=True):
    s = "".join(rng.choice("0123456789") for _ in range(n))
    return (rng.choice("123456789") + s[1:]) if lead_nonzero and n else s


def random_double():
    while True:
        f = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if f == f and f not in (float("inf"), float("-inf")):
            return f


def gen_number_text():
    r = rng.random()
    if r < 0.25:
        return str(rng.choice([0, 1, -1, 7, 42, 2**31, 2**53, 2**53 + 1, -(2**63), 2**64, 10**16]) + rng.randint(-3, 3))
    if r < 0.35:
        return rng.choice(["", "-"]) + digits(rng.choice([17, 20, 30, 60, 120]))
    if r < 0.55:
        return repr(random_double())
    if r < 0.65:
        return repr(rng.choice([5e-324, 2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308,
                                1e16, 9999999999999998.0, 1e15, 0.0001, 0.00001, 0.1, 0.3, 1 / 3, 100.0, -0.0, 0.0,
                                123456789.125, 1e22, 1e21, 1e-7, 2**53 * 1.0, 4.35, 0.5, 1e300 * 10]) * rng.choice([1, -1]))
    # free-form literal: exercises decimal->double rounding and exponent parsing
    s = rng.choice(["", "-"]) + (digits(rng.randint(1, 25)) if rng.random() < 0.8 else "0")
    if rng.random() < 0.6:
        s += "." + digits(rng.randint(1, 25), lead_nonzero=False)
    if rng.random() < 0.6:
        s += rng.choice("eE") + rng.choice(["", "+", "-"]) + str(rng.choice([0, 1, 5, 15, 16, 17, 22, 300, 307, 308, 309, 320, 323, 324, 330, 400, rng.randint(0, 999)]))
    return s


def ws():
    if rng.random() < 0.75:
        return ""
    return "".join(rng.choice(" \t\n\r") for _ in range(rng.randint(1, 3)))


def gen_text(depth=0):
    r = rng.random()
    container = depth < 4 and r < 0.45 - depth * 0.1
    if container and rng.random() < 0.5:
        n = rng.choice([0, 1, 2, 3, 4])
        return "[" + ws() + ("," + ws()).join(gen_text(depth + 1) + ws() for _ in range(n)) + "]"
    if container:
        n = rng.choice([0, 1, 2, 3, 4, 5])
        members = [ws() + gen_key_text() + ws() + ":" + ws() + gen_text(depth + 1) + ws() for _ in range(n)]
        return "{" + ",".join(members) + (ws() if not members else "") + "}"
    r = rng.random()
    if r < 0.35:
        return gen_string_text()
    if r < 0.8:
        return gen_number_text()
    return rng.choice(["null", "true", "false", "NaN", "Infinity", "-Infinity"])


MUTATION_CHARS = list(",:[]{}\"\\ x0-+.eE\t\n\r") + ["\x00", "\x01", "\x1f", "\x7f", "\xa0", "\ufeff", "\x0b", "\u2028",
                                                    "é", "\U0001F600", "'", "n", "N", "I", "/", "u", "\\u12"]


def mutate(text):
    k = rng.randrange(6)
    i = rng.randint(0, len(text))
    if k == 0 and text:
        return text[:i] + text[i + 1:]
    if k == 1:
        return text[:i] + rng.choice(MUTATION_CHARS) + text[i:]
    if k == 2 and text:
        return text[:i] + rng.choice(MUTATION_CHARS) + text[i + 1:]
    if k == 3:
        return text[:i]
    if k == 4:
        return text + rng.choice([",", " x", "]", "}", "\n\n1", " \U0001F600", "\x00"])
    return "\U0001F600" * rng.randint(0, 2) + "\n" * rng.randint(0, 2) + text[:i] + rng.choice(MUTATION_CHARS) + text[i:]


# ---------------------------------------------------------------- hand-picked edge cases
EDGE = [
    "", " ", "\t\n\r ", "\ufeff{}", "\ufeff", " \ufeff1", "\x0b1", "\xa01", "1\xa0", "1\x0c",
    "0", "-0", "-0.0", "0.0", "1", "1.0", "1.", ".5", "01", "-01", "00", "+1", "-", "--1", "1e", "1e+", "1E-",
    "1e5", "1E5", "1e+5", "1e-5", "1.5e", "0e0", "-0e-0", "1e400", "-1e400", "1e-400", "-1e-400", "2e308", "1e-324",
    "4.9e-324", "2.4703282292062328e-324", "2.4703282292062327e-324", "1.7976931348623158e308", "1.7976931348623159e308",
    "9007199254740993", "-9007199254740993", "9007199254740993.0", "123456789012345678901234567890",
    "1" * 4300, "-" + "1" * 4300, "1" * 4301, "-" + "1" * 4301, "[" + "9" * 4301 + "]", "1" * 4301 + ".0", "1" * 5000 + "e0",
    "NaN", "-NaN", "nan", "Infinity", "-Infinity", "+Infinity", "infinity", "Inf", "-Inf", "Infinityx", "NaNx",
    "null", "nul", "nulll", "None", "true", "True", "false", "fals", "[true,false,null]",
    '""', '"', '"abc', '"\\"', '"\\', '"a\\"b"', "'a'", '"\\x41"', '"\\a"', '"\\/"', '"\\b\\f\\n\\r\\t"',
    '"\\u0041"', '"\\u00e9"', '"\\u00E9"', '"\\u12"', '"\\u123', '"\\u1234', '"\\u1234x', '"\\u12345"', '"\\uGGGG"',
    '"\\ud800"', '"\\udc00"', '"\\ud800\\udc00"', '"\\ud83d\\ude00"', '"\\udbff\\udfff"', '"\\ud800\\ud800"',
    '"\\udc00\\ud800"', '"\\ud800x"', '"\\ud800\\u0041"', '"\\ud800\\udc0"', '"\\ud800\\udc00', '"\\ud800\\uzzzz"',
    '"\\ud800\\u', '"\\ud800\\', '"\\ud800\\n"', '"\\u0000"', '"\\u001f"', '"\\u007f"', '"\\u2028\\u2029"',
    '"a\x00"', '"a\x01b"', '"\x1f"', '"\x7f"', '"\t"', '"\n"', '"a\nb"', '"\xa0\x85"', '"\U0001F600"', '"\U0001F600" x',
    '"\U0001F600\U0001F600\n\U0001F600" 1', '"\ufeff"', "\"it's\"", '"say \\"hi\\""', '"both \' and \\""',
    "[", "]", "[]", "[ ]", "[1,]", "[,1]", "[1,,2]", "[1 2]", "[1;2]", "[[[]]]", "[[[]]", "[1]]", "[\n1,\n]",
    "{", "}", "{}", "{ }", '{"a"}', '{"a":}', '{"a" 1}', '{"a":1,}', '{,"a":1}', '{"a":1 "b":2}', "{'a':1}", "{a:1}",
    '{"a":1}}', '{1:2}', '{"a":1,"a":2}', '{"a":1,"b":2,"a":3}', '{"b":1,"a":2,"b":3,"c":4,"a":5}',
    '{"__proto__":{"x":1}}', '{"constructor":1,"toString":2}', '{"2":1,"1":2,"b":3,"a":4}',
    '{"\uffff":1,"\U0001F600":2,"\ue000":3,"\U00010000":4,"\ud7ff":5}',
    '{"\\ud800":1,"\\ue000":2,"\\ud83d\\ude00":3,"\\udfff":4}',
    '{"z":{"b":1,"a":[{"d":1,"c":2}]},"y":null}',
    "1 x", "1 2", "[] []", "{}x", "1\n\n  x", "  1  ", "\n\n\n[1,\n  2,\n  }", "\r\n[\r\n}", "\U0001F600",
    "[1e16, 1e15, 123456789012345678.0, 0.0001, 0.00001, 1e-05, 100.0, 1.5e300, 5e-324, 0.1, 0.30000000000000004]",
    "[1.7976931348623157e+308, 2.2250738585072014e-308, 1e22, 1e21, 1e23, 9999999999999998, 9999999999999998.0, 1e+16]",
    "[-0.0, -0, 0.0, 0, -1e-400, 1E+2, 1.0e-10, 12345678901234567e3, 0.1e1, 1e-4, 9.999999999999999e-5]",
    '{"model": "hermes", "messages": [{"role": "user", "content": "Hi \U0001F600 caf\u00e9 \\u00e9"}], "temperature": 0.7, "stream": false, "max_tokens": 1024}',
    '{"input": "x", "metadata": {"k": [1, 2.5, "three", null, true]}, "n": 1.0}',
    "[" * 983 + "]" * 983, "[" * 984 + "]" * 984, '{"a":' * 983 + "1" + "}" * 983, '{"a":' * 984 + "1" + "}" * 984,
    "[" * 983 + "{}" + "]" * 983, "[" * 2000, "[" * 984 + "1,",
]

# ---------------------------------------------------------------- recording
def loads_record(text):
    rec = {"in": text}
    try:
        v = _loads_at_handler_depth(text)
    except json.JSONDecodeError as e:
        rec["err"] = "JSONDecodeError"
        rec["msg"] = str(e)
        return rec
    except (ValueError, RecursionError) as e:
        rec["err"] = type(e).__name__
        rec["msg"] = str(e)
        return rec
    rec["d0"] = json.dumps(v)
    rec["d1"] = json.dumps(v, sort_keys=True, separators=(",", ":"))
    rec["d2"] = json.dumps(v, sort_keys=True, ensure_ascii=False)
    rec["r"] = repr(v)
    rec["t"] = bool(v)
    return rec


HANDLER_DEPTH = 983  # measured in an aiohttp 3.14.1 handler; see jsonLoads.ts


def _loads_at_handler_depth(text):
    # Pad the Python stack so json.loads hits RecursionError exactly where it
    # would inside an aiohttp handler (max nesting HANDLER_DEPTH).
    def at(depth):
        if depth <= 0:
            return json.loads(text)
        return at(depth - 1)
    return at(_PAD)


_PAD = 0


def strip_record(s, chars=None):
    rec = {"kind": "strip", "in": s, "strip": s.strip(), "lstrip": s.lstrip(), "rstrip": s.rstrip()}
    if chars is not None:
        rec["chars"] = chars
        rec["strip_chars"] = s.strip(chars)
        rec["lstrip_chars"] = s.lstrip(chars)
        rec["rstrip_chars"] = s.rstrip(chars)
    return rec


def main():
    global _PAD
    # Pad the stack so that HANDLER_DEPTH nesting is the deepest that parses.
    # Probing through loads_record from main keeps the stack depth identical
    # to the real recording calls below.
    deep = "[" * HANDLER_DEPTH + "]" * HANDLER_DEPTH
    for pad in range(200):
        _PAD = pad
        if "err" in loads_record(deep):
            _PAD = pad - 1
            break
    assert "err" not in loads_record(deep) and "err" in loads_record("[" + deep + "]")
    records = [{"kind": "meta", "python": sys.version.split()[0], "pad": _PAD}]
    texts = list(EDGE)
    for _ in range(900):
        texts.append(ws() + gen_text() + ws())
    for _ in range(800):
        texts.append(mutate(gen_text()))
    for _ in range(200):
        texts.append("[" + ", ".join(repr(random_double()) for _ in range(6)) + "]")
    for _ in range(150):
        texts.append("[" + ",".join(gen_number_text() for _ in range(6)) + "]")
    for t in texts:
        records.append(loads_record(t))
    # repr of strings from every pool, incl. characters newer than Python's Unicode tables
    for _ in range(300):
        s = "".join(CHAR_POOLS[rng.randrange(len(CHAR_POOLS))]() for _ in range(rng.randint(0, 8)))
        # A lone high surrogate followed by a lone low one is two code points in
        # Python but one astral char in JS; json.loads never yields that, so skip.
        s = "".join(c for i, c in enumerate(s) if not (0xDC00 <= ord(c) <= 0xDFFF and i and 0xD800 <= ord(s[i - 1]) <= 0xDBFF))
        records.append({"kind": "repr_str", "in": s, "r": repr(s)})
    spaces = [chr(c) for c in range(0x110000) if chr(c).isspace()]
    records.append({"kind": "isspace", "cps": [ord(c) for c in spaces]})
    pool = spaces + ["a", "b", "\ufeff", "\u200b", "\U0001F600", "x", "\x00", "\xa0"]
    for _ in range(200):
        s = "".join(rng.choice(pool) for _ in range(rng.randint(0, 8)))
        chars = "".join(rng.choice(pool) for _ in range(rng.randint(0, 3))) if rng.random() < 0.4 else None
        records.append(strip_record(s, chars))
    with open(OUT, "w", encoding="ascii") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    print(f"{len(records)} records -> {OUT} ({os.path.getsize(OUT)} bytes)")


main()
