"""The session's Hermes server, from one of four places: an installed `hermes-emulator` bin
(the default), the image through testcontainers, an emulator already running at a URL, or a real
Hermes gateway (no control plane)."""
import json
import secrets
import urllib.request

from .process import EmulatorProcess, find_bin


class HermesServer:
    """Where the session's tests send their requests, and how it ends."""

    def __init__(self, base_url, api_key, is_emulator, kind, stop=None, pid=None, container_id=None):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.is_emulator = is_emulator
        self.kind = kind
        self.pid = pid
        self.container_id = container_id
        self._stop = stop

    def stop(self):
        stop, self._stop = self._stop, None
        if stop is not None:
            stop()

    def health(self):
        with urllib.request.urlopen(f"{self.base_url}/health", timeout=10) as response:
            return json.loads(response.read())


def new_api_key():
    return f"pytest-hermetic-{secrets.token_hex(16)}"


def start_bin(bin_path=None, api_key=None, hermes_version=None, start_timeout=30.0):
    """`hermes-emulator serve` on a free loopback port, in memory, with the journal keeping bodies."""
    key = api_key or new_api_key()
    argv = [find_bin(bin_path), "serve", "--host", "127.0.0.1", "--port", "0", "--memory", "--api-key", key, "--journal-bodies"]
    if hermes_version:
        argv += ["--hermes-version", hermes_version]
    proc = EmulatorProcess(argv, start_timeout=start_timeout)
    return HermesServer(proc.url, key, True, "bin", stop=proc.stop, pid=proc.pid)


def start_container(image, api_key=None, hermes_version=None, host_network=True):
    """The image through testcontainers (host network by default: bound to 127.0.0.1)."""
    from .container import HermesEmulatorContainer

    key = api_key or new_api_key()
    container = HermesEmulatorContainer(image).with_api_key(key).with_journal_bodies()
    if hermes_version:
        container.with_hermes_version(hermes_version)
    if host_network:
        container.with_host_network()
    container.start()
    return HermesServer(container.get_base_url(), key, True, "container", stop=container.stop, container_id=container.get_wrapped_container().id)


def attach(url, api_key, is_emulator):
    """A server someone else started and stops."""
    return HermesServer(url, api_key or "", is_emulator, "emulator-url" if is_emulator else "hermes-url")
