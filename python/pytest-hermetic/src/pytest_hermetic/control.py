"""One test's view of a Hermes server: its own namespace of the emulator (clock, Script, journal,
faults, state), the headers that select it, an `openai.OpenAI` client already pointed at it, and
the control plane's calls. Against a real Hermes (`--hermes-url`) the client works and every
control-plane call skips the test: a real gateway has no control plane.
"""
import json
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

NAMESPACE_HEADER = "x-hermetic-namespace"


class ControlPlaneError(RuntimeError):
    """The emulator refused a control-plane request: its status and its answer."""

    def __init__(self, method, path, status, body):
        super().__init__(f"hermetic: {method} {path} answered {status}: {body}")
        self.status = status
        self.body = body


class JournalExpectationFailed(AssertionError):
    """expect_request found no (or not the expected number of) matching requests."""


def _turn(item):
    # a string is one text reply; a dict is a whole turn ({"replies": [...], "when": ...})
    return {"replies": [{"text": item}]} if isinstance(item, str) else item


def _describe(entry):
    calls = len(entry.get("modelCalls") or [])
    session = f" session {entry['session']}" if entry.get("session") else ""
    return f"  #{entry['id']} {entry['method']} {entry['path']} ({entry['operation']}) -> {entry['status']}{session}, {calls} model call(s)"


class Hermes:
    """A namespace of the session's server, for one test."""

    def __init__(self, server, namespace):
        self.server = server
        self.namespace = namespace
        self.base_url = server.base_url
        self.api_key = server.api_key
        self._client = None

    @property
    def is_emulator(self):
        return self.server.is_emulator

    @property
    def headers(self):
        """Headers for your own HTTP calls: the bearer key and this test's namespace."""
        auth = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        return {**auth, NAMESPACE_HEADER: self.namespace}

    @property
    def client(self):
        """An `openai.OpenAI` client pointed at `{base_url}/v1`, in this test's namespace."""
        if self._client is None:
            try:
                from openai import OpenAI
            except ImportError as e:  # pragma: no cover - depends on the environment
                raise RuntimeError("hermes.client needs the openai package (pip install pytest-hermetic[openai])") from e
            self._client = OpenAI(
                base_url=f"{self.base_url}/v1",
                api_key=self.api_key or "no-key",
                default_headers={NAMESPACE_HEADER: self.namespace},
                max_retries=0,
            )
        return self._client

    # the control plane

    def _admin(self, method, path, body=None, query=None):
        if not self.is_emulator:
            pytest.skip(f"needs the emulator's control plane ({method} /__admin{path}); --hermes-url points at a real Hermes")
        qs = f"?{urllib.parse.urlencode(query)}" if query else ""
        request = urllib.request.Request(
            f"{self.base_url}/__admin{path}{qs}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={**self.headers, "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as e:
            raise ControlPlaneError(method, f"/__admin{path}{qs}", e.code, e.read().decode("utf-8", "replace")) from None

    def script(self, *turns):
        """What "the model" says next: each argument is one agent turn, a reply text or a whole turn."""
        return self._admin("POST", "/script", {"turns": [_turn(t) for t in turns]})

    def release(self, hold):
        return self._admin("POST", f"/holds/{urllib.parse.quote(hold, safe='')}/release", {})

    def clock(self, *, set=None, advance=None, freeze=None):
        """Sets (epoch seconds), advances (seconds) or freezes this namespace's clock; returns its time."""
        given = {k: v for k, v in {"set": set, "advance": advance, "freeze": freeze}.items() if v is not None}
        if len(given) != 1:
            raise TypeError("clock() takes exactly one of set=, advance=, freeze=")
        return self._admin("POST", "/clock", given)["now"]

    def arm_fault(self, **rule):
        """A fault for matching requests, e.g. arm_fault(route="chat.completions", status=503, times=1)."""
        return self._admin("POST", "/faults", rule)

    def clear_faults(self):
        self._admin("DELETE", "/faults")

    def save_snapshot(self):
        """This namespace's durable state: what `hermes-emulator serve --snapshot FILE` takes."""
        return self._admin("POST", "/snapshot", {"action": "save"})["snapshot"]

    def load_snapshot(self, snapshot):
        """Replaces this namespace's rows with the snapshot's; returns the rows loaded per table."""
        return self._admin("POST", "/snapshot", {"action": "load", "snapshot": snapshot})["loaded"]

    def keep_bodies(self, max_body_bytes=None):
        """The journal keeps request bodies and model calls (redacted) from now on."""
        settings = {"bodies": True, **({"maxBodyBytes": max_body_bytes} if max_body_bytes else {})}
        return self._admin("POST", "/journal", settings)

    def journal(self, **query):
        """Journal entries matching operation=, method=, path=, session=, text=, status=, since=, limit=."""
        return self._admin("GET", "/journal", query={k: v for k, v in query.items() if v is not None})["entries"]

    def expect_request(self, times=None, within=0.0, **query):
        """The last matching journal entry; fails, listing what the journal holds, unless there is one
        (exactly `times` when given), waiting up to `within` seconds for it."""
        deadline = time.monotonic() + within
        while True:
            found = self.journal(**query)
            if (len(found) >= 1) if times is None else (len(found) == times):
                return found[-1] if found else None
            if time.monotonic() >= deadline:
                break
            time.sleep(0.02)
        wanted = "at least one request" if times is None else f"{times} request(s)"
        held = self.journal()
        listing = "\n".join(_describe(e) for e in held) if held else "  (none)"
        raise JournalExpectationFailed(
            f"expected {wanted} matching {query} in namespace {self.namespace!r}, found {len(found)}.\n"
            f"The journal holds {len(held)} request(s):\n{listing}"
        )

    def expect_no_request(self, **query):
        self.expect_request(times=0, **query)

    def model_calls(self, **query):
        """The model calls (messages the agent would send) of the matching requests, in order."""
        return [call for entry in self.journal(**query) for call in entry.get("modelCalls") or []]

    def restart(self):
        return self._admin("POST", "/restart", {})

    def reset(self):
        return self._admin("POST", "/reset", {})
