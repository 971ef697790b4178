"""Emit body-vectors.jsonl: how aiohttp's request.text() turns body bytes into the str json.loads sees.

Needs aiohttp (parse_content_type), e.g. /work/scratch/venv019/bin/python.
Run: <python-with-aiohttp> packages/emulator/test/python/body_vectors.py
"""
import codecs
import json
import os
import random
import sys
from encodings.aliases import aliases

import aiohttp
from aiohttp.helpers import parse_content_type

rng = random.Random(7)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "body-vectors.jsonl")
OURS = {"utf-8", "utf-8-sig", "ascii", "iso8859-1"}

records = [{"kind": "meta", "python": sys.version.split()[0], "aiohttp": aiohttp.__version__}]

for ct in ["application/json", "application/json; charset=utf-8", "application/json; charset=UTF-8",
           "application/json;charset=latin-1", 'application/json; charset="utf-8"', "application/json; CHARSET=UTF8",
           "application/json; charset=utf-8; charset=latin-1", "application/json;charset = utf-8",
           'application/json; charset="utf-8"; x=1', "application/json; charset", "application/json;;charset=ascii",
           'application/json; charset="a\\"b"', "application/json; charset=utf-8;", "application/json; x=1",
           "text/plain; charset=bogus", 'application/json; charset=" utf-8 "', "application/json; charset=utf 8",
           "application/json; format=flowed; charset=us-ascii"]:
    records.append({"kind": "charset", "ct": ct, "charset": parse_content_type(ct)[1].get("charset")})

names = set(aliases) | set(aliases.values()) | {"UTF-8", "Utf8", " utf-8 ", "utf--8", "UTF_8", "utf-8-sig", "UTF8-SIG",
                                                 "utf.8", "u-8", "ISO-8859-1", "US-ASCII", "Latin-1", "bogus", "utf-16"}
for name in sorted(names):
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        codec = None
    records.append({"kind": "codec", "name": name, "codec": codec if codec in OURS else ("other" if codec else None)})


def rand_bytes():
    parts = []
    for _ in range(rng.randint(0, 6)):
        r = rng.random()
        if r < 0.4:
            parts.append(rng.choice(["a", "{}", "é", "\U0001F600", "\u20ac", "\x00"]).encode("utf-8"))
        elif r < 0.7:
            parts.append(bytes([rng.randint(0x80, 0xFF)]))
        else:
            lead = rng.choice([0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF3, 0xF4, 0xC0, 0xF5])
            parts.append(bytes([lead] + [rng.randint(0x70, 0xC0) for _ in range(rng.randint(0, 3))]))
    return b"".join(parts)


cases = [b"", b"\xef\xbb\xbf{}", b"\xef\xbb\xbf", b"\xef\xbb", b"\xff", b"\xed\xa0\x80", b"\xed\xa0", b"\xe0\x80",
         b"\xe0\xa0", b"\xf4\x90\x80\x80", b"\xf0\x9f\x98", b"\xc0\xaf", b'{"a": "caf\xc3\xa9"}', b"\xe2\x82x"]
cases += [rand_bytes() for _ in range(400)]
for b in cases:
    for enc in ["utf-8", "utf-8-sig", "ascii", "latin-1"]:
        try:
            rec = {"kind": "decode", "hex": b.hex(), "enc": enc, "text": b.decode(enc)}
        except UnicodeDecodeError as e:
            rec = {"kind": "decode", "hex": b.hex(), "enc": enc, "err": str(e)}
        records.append(rec)

with open(OUT, "w", encoding="ascii") as f:
    for r in records:
        f.write(json.dumps(r) + "\n")
print(f"{len(records)} records -> {OUT} ({os.path.getsize(OUT)} bytes)")
