"""The hermes-emulator image as a testcontainers-python container:

    with HermesEmulatorContainer().with_api_key(key).with_hermes_version("0.19.0") as emu:
        client = OpenAI(base_url=f"{emu.get_base_url()}/v1", api_key=key)

It waits until `/health` answers 200. testcontainers' reaper (Ryuk) removes what a killed process
left; where its image cannot be pulled, set TESTCONTAINERS_RYUK_DISABLED=true and stop the
container yourself (the pytest plugin does, at the end of the session and at exit).
"""
import atexit
import socket
import time
import urllib.error
import urllib.request

from testcontainers.core.container import DockerContainer

DEFAULT_IMAGE = "hermetic/emulator:latest"
EMULATOR_PORT = 8642
_live = []


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HermesEmulatorContainer(DockerContainer):
    def __init__(self, image=DEFAULT_IMAGE, **kwargs):
        super().__init__(image, **kwargs)
        self.api_key = ""
        self._host_port = None
        self._serve = ["serve", "--data-dir", "/data"]

    def with_api_key(self, key):
        """API_SERVER_KEY: the API's bearer key, and the control plane's unless an admin key is set."""
        self.api_key = key
        return self.with_env("API_SERVER_KEY", key)

    def with_hermes_version(self, version):
        """The Hermes release to emulate (HERMETIC_HERMES_VERSION): "0.19.0" or "0.21.0"."""
        return self.with_env("HERMETIC_HERMES_VERSION", version)

    def with_admin_key(self, key):
        return self.with_env("HERMETIC_ADMIN_KEY", key)

    def with_journal_bodies(self):
        self._serve.append("--journal-bodies")
        return self

    def without_api_key_for_local_test(self):
        """No key, on purpose: the container listens on 0.0.0.0, so this must be said."""
        return self.with_env("HERMETIC_ALLOW_NO_KEY", "local-test")

    def with_host_network(self, port=None):
        """The host's network, bound to 127.0.0.1:port (a free one when not given)."""
        self._host_port = port or _free_port()
        self.with_kwargs(network_mode="host")
        self.with_env("API_SERVER_HOST", "127.0.0.1")
        return self.with_env("API_SERVER_PORT", str(self._host_port))

    def get_base_url(self):
        if self._host_port is not None:
            return f"http://127.0.0.1:{self._host_port}"
        return f"http://{self.get_container_host_ip()}:{self.get_exposed_port(EMULATOR_PORT)}"

    def start(self, timeout=30.0):
        self.with_command(self._serve)
        if self._host_port is None:
            self.with_exposed_ports(EMULATOR_PORT)
        super().start()
        _live.append(self)
        try:
            self._wait_healthy(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_healthy(self, timeout):
        deadline = time.monotonic() + timeout
        last = "no answer yet"
        while time.monotonic() < deadline:
            self.get_wrapped_container().reload()
            if self.get_wrapped_container().status == "exited":
                logs = b"".join(part or b"" for part in self.get_logs()).decode("utf-8", "replace").strip()
                raise RuntimeError(f"hermes-emulator container exited: {logs}")
            try:
                with urllib.request.urlopen(f"{self.get_base_url()}/health", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError) as e:
                last = str(e)
            time.sleep(0.2)
        raise TimeoutError(f"hermes-emulator container: /health did not answer 200 within {timeout:g} s ({last})")

    def stop(self, force=True, delete_volume=True):
        if self in _live:
            _live.remove(self)
        if self._container is not None and not getattr(self, "_stopped", False):
            self._stopped = True
            super().stop(force=force, delete_volume=delete_volume)


def stop_all():
    for container in list(_live):
        container.stop()


atexit.register(stop_all)
