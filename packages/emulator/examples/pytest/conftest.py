"""A pytest fixture that starts hermes-emulator and points the official openai SDK at it.

HERMES_EMULATOR is the command that runs the CLI (default: "npx hermes-emulator").
"""
import json
import os
import re
import shlex
import subprocess
import urllib.request

import pytest
from openai import OpenAI

API_KEY = "pytest-key-0123456789abcdef"


class Emulator:
    def __init__(self, url):
        self.url = url

    def client(self):
        return OpenAI(base_url=f"{self.url}/v1", api_key=API_KEY)

    def script(self, *replies):
        """What "the model" says next: one turn per reply text."""
        self._admin("/script", {"turns": [{"replies": [{"text": text}]} for text in replies]})

    def reset(self):
        self._admin("/reset", {})

    def _admin(self, path, body):
        request = urllib.request.Request(
            f"{self.url}/__admin{path}",
            data=json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"},
        )
        urllib.request.urlopen(request).read()


@pytest.fixture(scope="session")
def hermes_emulator():
    command = shlex.split(os.environ.get("HERMES_EMULATOR", "npx hermes-emulator"))
    process = subprocess.Popen(
        [*command, "serve", "--port", "0", "--api-key", API_KEY, "--hermes-version", "0.19.0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    match = re.search(r"listening on (http://\S+)", line)
    if match is None:
        process.kill()
        raise RuntimeError(f"hermes-emulator did not start: {line!r}")
    yield Emulator(match.group(1))
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture
def emulator(hermes_emulator):
    """The session's emulator, reset after each test."""
    yield hermes_emulator
    hermes_emulator.reset()
