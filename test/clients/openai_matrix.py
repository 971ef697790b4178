"""The client matrix's Python half: the official openai SDK against BASE_URL; scripts the model
through ADMIN_URL (/__admin/script). Prints one JSON list of {client, case, outcome, detail}."""
import json
import os
import urllib.request

from openai import OpenAI

BASE, KEY, ADMIN = os.environ["BASE_URL"], os.environ["API_KEY"], os.environ["ADMIN_URL"]
MODEL = "hermes-agent"
client = OpenAI(base_url=f"{BASE}/v1", api_key=KEY, max_retries=0, timeout=30)
rows = []


def script(text):
    body = {"turns": [{"replies": [{"text": text, "chunks": [text[:4], text[4:]]}]}]}
    request = urllib.request.Request(
        f"{ADMIN}/__admin/script",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"},
    )
    urllib.request.urlopen(request).read()


def check(name, expected, body):
    try:
        got = body()
        ok = got == expected
        rows.append({"client": "openai-python", "case": name, "outcome": "ok" if ok else "fails", "detail": got if ok else f"got {json.dumps(got)[:160]}"})
    except Exception as e:  # the matrix records what the library raised
        rows.append({"client": "openai-python", "case": name, "outcome": "fails", "detail": f"{type(e).__name__}: {e}"})


def run(name, text, body):
    script(text)
    check(name, text, body)


messages = [{"role": "user", "content": "hi"}]
run("chat plain", "chat plain reply", lambda: client.chat.completions.create(model=MODEL, messages=messages).choices[0].message.content)
run("chat streamed", "chat streamed reply", lambda: "".join(
    c.choices[0].delta.content or "" for c in client.chat.completions.create(model=MODEL, messages=messages, stream=True) if c.choices))
run("responses plain", "responses plain reply", lambda: client.responses.create(model=MODEL, input="hi").output_text)
run("responses streamed (events)", "responses streamed reply", lambda: "".join(
    e.delta for e in client.responses.create(model=MODEL, input="hi", stream=True) if e.type == "response.output_text.delta"))


def helper():
    with client.responses.stream(model=MODEL, input="hi") as stream:
        return stream.get_final_response().output_text


run("responses streamed (stream helper)", "responses helper reply", helper)
script("first of the chain")


def chained():
    first = client.responses.create(model=MODEL, input="one", store=True)
    return client.responses.create(model=MODEL, input="two", previous_response_id=first.id).output_text


run("responses chained", "second of the chain", chained)
check("models list", MODEL, lambda: ",".join(m.id for m in client.models.list().data))
print(json.dumps(rows))
