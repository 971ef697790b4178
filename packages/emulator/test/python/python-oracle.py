"""Batch oracle for property.test.ts: stdin = JSON list of texts; stdout = JSON list of CPython results."""
import json
import sys

out = []
for text in json.load(sys.stdin):
    try:
        v = json.loads(text)
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        out.append({"err": type(e).__name__, "msg": str(e)})
        continue
    out.append({
        "d0": json.dumps(v),
        "d1": json.dumps(v, sort_keys=True, separators=(",", ":")),
        "d2": json.dumps(v, sort_keys=True, ensure_ascii=False),
        "r": repr(v),
        "t": bool(v),
    })
json.dump(out, sys.stdout)
