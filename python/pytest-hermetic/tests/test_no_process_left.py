"""No emulator outlives a pytest session: not after a failing test, not after SIGINT (Ctrl-C),
not after pytest is killed. Each case runs pytest in a subprocess with the plugin starting the
installed bin, then checks the emulator's pid and port; with --hermes-image, the SIGINT and
failure cases check that the container is gone."""
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.parse

import pytest

from pytest_hermetic.process import find_bin

INNER = '''
import json, os, time

def test_holds(hermes_server):
    with open(os.environ["PROBE_FILE"], "w") as f:
        json.dump({"pid": hermes_server.pid, "container": hermes_server.container_id, "url": hermes_server.base_url}, f)
    if os.environ.get("PROBE_MODE") == "fail":
        # fail only once the outer test has seen the emulator running
        deadline = time.monotonic() + 60
        while not os.path.exists(os.environ["PROBE_FILE"] + ".go") and time.monotonic() < deadline:
            time.sleep(0.05)
        raise AssertionError("failing on purpose")
    time.sleep(120)
'''


def _bin_or_skip(config):
    if config.getoption("--hermes-image") or config.getoption("--hermes-emulator-url") or config.getoption("--hermes-url"):
        pytest.skip("the process cases need the bin mode")
    return find_bin(config.getoption("--hermes-emulator-bin"))


def _server_args(config):
    """How the inner session starts its emulator: the same way as this session."""
    if config.getoption("--hermes-image"):
        return ["--hermes-image", config.getoption("--hermes-image")]
    if config.getoption("--hermes-emulator-url") or config.getoption("--hermes-url"):
        pytest.skip("an emulator at a URL is not this session's to stop")
    return ["--hermes-emulator-bin", find_bin(config.getoption("--hermes-emulator-bin"))]


def _alive(pid):
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie no one reaped yet is gone for every purpose but the table
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(") ")[1][0] != "Z"


def _port_open(url):
    parts = urllib.parse.urlsplit(url)
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=1):
            return True
    except OSError:
        return False


def _container_exists(container_id):
    if container_id is None:
        return False
    import docker

    try:
        docker.from_env().containers.get(container_id)
        return True
    except docker.errors.NotFound:
        return False


def _run(tmp_path, server_args, mode, stop):
    (tmp_path / "test_inner.py").write_text(INNER)
    probe = tmp_path / "probe.json"
    child = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *server_args, str(tmp_path / "test_inner.py")],
        cwd=tmp_path,
        env={**os.environ, "PROBE_FILE": str(probe), "PROBE_MODE": mode},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not probe.exists() or probe.stat().st_size == 0:
            assert child.poll() is None or probe.exists(), child.stdout.read()
            assert time.monotonic() < deadline, "the inner session did not start its emulator"
            time.sleep(0.1)
        seen = json.loads(probe.read_text())
        running = _alive(seen["pid"]) or _container_exists(seen["container"])
        assert running and _port_open(seen["url"]), f"the emulator was not running during the test: {seen}"
        stop(child)
        out, _ = child.communicate(timeout=60)
    finally:
        # a failed check must not leave the inner session (and its emulator) running
        if child.poll() is None:
            child.send_signal(signal.SIGINT)
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()
    return seen, child.returncode, out


def _gone(seen):
    deadline = time.monotonic() + 10
    while _alive(seen["pid"]) or _port_open(seen["url"]) or _container_exists(seen["container"]):
        assert time.monotonic() < deadline, f"emulator pid {seen['pid']}, container {seen['container']} or its port {seen['url']} is still there"
        time.sleep(0.1)


def test_a_failing_test_leaves_no_process(request, tmp_path):
    seen, code, out = _run(tmp_path, _server_args(request.config), "fail", lambda child: (tmp_path / "probe.json.go").touch())
    assert code == 1, out
    assert "1 failed" in out
    _gone(seen)


def test_sigint_leaves_no_process(request, tmp_path):
    seen, code, out = _run(tmp_path, _server_args(request.config), "hold", lambda child: child.send_signal(signal.SIGINT))
    assert code == 2, out  # pytest's "interrupted"
    assert "KeyboardInterrupt" in out
    _gone(seen)


def test_a_killed_pytest_leaves_no_process(request, tmp_path):
    # SIGKILL runs no Python at all: the emulator's parent-death signal ends it
    if not sys.platform.startswith("linux"):
        pytest.skip("the parent-death signal is Linux's")
    seen, code, _ = _run(tmp_path, ["--hermes-emulator-bin", _bin_or_skip(request.config)], "hold", lambda child: child.kill())
    assert code == -signal.SIGKILL
    _gone(seen)


def test_a_failed_start_reports_the_emulators_stderr(request, pytester):
    bin_path = _bin_or_skip(request.config)
    pytester.makepyfile(test_inner="def test_x(hermes_server):\n    pass\n")
    result = pytester.runpytest_subprocess("--hermes-emulator-bin", bin_path, "--hermes-version", "9.9.9")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*hermes-emulator exited with 2*", "*unknown --hermes-version '9.9.9'*"])


def test_a_missing_bin_says_how_to_install_it(pytester):
    pytester.makepyfile(test_inner="def test_x(hermes_server):\n    pass\n")
    result = pytester.runpytest_subprocess("--hermes-emulator-bin", "/nonexistent/hermes-emulator")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*npm i -D @hermetic/emulator*"])
