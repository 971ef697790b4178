"""Testing a Python application against hermetic's emulator (run by pytest).

HERMES_BASE_URL and API_SERVER_KEY point at a running emulator, e.g.
    hermes-emulator serve --port 8642 --api-key test-key-0123456789
"""
import os

import requests

BASE = os.environ.get("HERMES_BASE_URL", "http://127.0.0.1:8642")
KEY = os.environ.get("API_SERVER_KEY", "test-key-0123456789")
AUTH = {"Authorization": f"Bearer {KEY}"}


def admin(path, body=None, namespace="python-example"):
    """The emulator's control plane: JSON in, JSON out, one namespace per test."""
    r = requests.post(f"{BASE}/__admin{path}", json=body or {}, headers={**AUTH, "x-hermetic-namespace": namespace})
    r.raise_for_status()
    return r.json()


# Your application code.
def greet(name):
    r = requests.post(
        f"{BASE}/v1/chat/completions",
        headers={**AUTH, "x-hermetic-namespace": "python-example"},
        json={"model": "hermes-agent", "messages": [{"role": "user", "content": f"Greet {name} in French"}]},
    )
    r.raise_for_status()
    return r.json()["choices"][0]["message"]["content"]


def test_greets_with_what_the_model_says_and_sends_the_name():
    admin("/reset")
    admin("/journal", {"bodies": True})
    admin("/script", {"turns": [{"replies": [{"text": "Bonjour, Ada !"}]}]})

    assert greet("Ada") == "Bonjour, Ada !"

    journal = requests.get(
        f"{BASE}/__admin/journal",
        params={"operation": "chat.completions", "text": "Greet Ada"},
        headers={**AUTH, "x-hermetic-namespace": "python-example"},
    ).json()
    [entry] = journal["entries"]
    assert entry["request"]["headers"]["authorization"] == "[REDACTED]"
    assert entry["modelCalls"][0]["messages"] == [{"role": "user", "content": "Greet Ada in French"}]


def test_snapshot_round_trip():
    admin("/reset")
    admin("/script", {"turns": [{"replies": [{"text": "Bonjour, Grace !"}]}]})
    greet("Grace")
    snapshot = admin("/snapshot", {"action": "save"})["snapshot"]
    admin("/reset")
    assert admin("/snapshot", {"action": "save"})["snapshot"]["tables"]["hermes_sessions"] == []

    loaded = admin("/snapshot", {"action": "load", "snapshot": snapshot})["loaded"]
    assert loaded["hermes_messages"] == 2
    sessions = requests.get(f"{BASE}/api/sessions", headers={**AUTH, "x-hermetic-namespace": "python-example"}).json()
    assert len(sessions["data"]) == 1
