"""Starting an installed `hermes-emulator` bin and making sure it ends.

The bin is started directly (a path, or the name looked up on PATH), never through npx: outside a
Node project npx would ask the public registry for the name. It runs in its own process group,
which is killed as a whole (an installed bin may start a child node of its own), and on Linux it is
told to die with the pytest process (PR_SET_PDEATHSIG), so not even a killed pytest leaves it behind.
"""
import atexit
import ctypes
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

_LISTENING = re.compile(r"listening on (http://\S+)")
_live = []


class EmulatorStartError(RuntimeError):
    """The emulator did not start; the message carries its stderr."""


def _die_with_parent():
    # runs in the child between fork and exec: SIGTERM when the parent (pytest) goes away
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def find_bin(explicit=None):
    """The bin to run: an explicit path, $HERMES_EMULATOR_BIN, else `hermes-emulator` on PATH."""
    candidate = explicit or os.environ.get("HERMES_EMULATOR_BIN") or "hermes-emulator"
    found = candidate if os.path.sep in candidate else shutil.which(candidate)
    if found is None or not os.access(found, os.X_OK):
        raise EmulatorStartError(
            f"no hermes-emulator bin: {candidate!r} is not an executable on PATH. Install it "
            "(npm i -D @hermetic/emulator, then it is node_modules/.bin/hermes-emulator) and pass "
            "--hermes-emulator-bin PATH or set HERMES_EMULATOR_BIN; or use --hermes-image / --hermes-emulator-url."
        )
    return found


class EmulatorProcess:
    """One `hermes-emulator serve` on a free loopback port, until stop()."""

    def __init__(self, argv, env=None, start_timeout=30.0):
        self._stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env={**os.environ, **(env or {})},
            start_new_session=True,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
        _live.append(self)
        try:
            self.url = self._wait_listening(start_timeout)
        except BaseException:
            self.stop()
            raise
        # keep reading stdout, so a full pipe never blocks the emulator
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        try:
            while os.read(self.process.stdout.fileno(), 65536):
                pass
        except (OSError, ValueError):
            pass

    @property
    def pid(self):
        return self.process.pid

    def stderr_text(self):
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")

    def _wait_listening(self, timeout):
        deadline = time.monotonic() + timeout
        seen = b""
        out = self.process.stdout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([out], [], [], 0.1)
            if ready:
                chunk = os.read(out.fileno(), 4096)
                if chunk == b"":
                    break
                seen += chunk
                match = _LISTENING.search(seen.decode("utf-8", "replace"))
                if match is not None:
                    return match.group(1)
            elif self.process.poll() is not None:
                break
        # its stdout closing comes a moment before the exit can be reaped: wait for it briefly
        try:
            code = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        why = f"exited with {code}" if code is not None else f"did not say it was listening within {timeout:g} s"
        raise EmulatorStartError(
            f"hermes-emulator {why}.\nstdout: {seen.decode('utf-8', 'replace').strip()!r}\nstderr:\n{self.stderr_text().strip()}"
        )

    def stop(self, grace=10.0):
        """SIGTERM to the whole group, SIGKILL after `grace` seconds; idempotent."""
        if self in _live:
            _live.remove(self)
        if self.process.poll() is None:
            _signal_group(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        # the group may outlive its leader (a child node): kill what is left of it
        _signal_group(self.process.pid, signal.SIGKILL)
        if self.process.poll() is None:
            self.process.wait(timeout=grace)
        if self.process.stdout is not None:
            self.process.stdout.close()
        self._stderr.close()


def _signal_group(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def stop_all():
    """Stops every emulator this process started and has not stopped yet."""
    for proc in list(_live):
        proc.stop()


atexit.register(stop_all)
