"""The pytest plugin (entry point `pytest11: hermetic`).

Fixtures:
  hermes_server  session   the server: an installed hermes-emulator bin (default), the image
                           through testcontainers (--hermes-image), an emulator already running
                           (--hermes-emulator-url), or a real Hermes (--hermes-url)
  hermes         function  this test's namespace: own clock, Script, journal; .client is an
                           openai.OpenAI pointed at it; .script(), .expect_request(), snapshots
  openai_client  function  hermes.client

Against a real Hermes (--hermes-url) tests marked `hermes_control`, and any control-plane call,
are skipped: the same tests then check your app against the real thing.
Whatever ends the session (a failure, Ctrl-C/SIGINT, an error in setup), the emulator it started
is stopped: at session teardown, at pytest_unconfigure, and at interpreter exit.
"""
import hashlib
import os

import pytest

from . import process, server
from .control import Hermes


def pytest_addoption(parser):
    group = parser.getgroup("hermetic", "Hermes Agent API emulator (pytest-hermetic)")
    group.addoption("--hermes-url", default=os.environ.get("HERMES_URL"),
                    help="run against a real Hermes at this URL; tests that need the control plane are skipped")
    group.addoption("--hermes-emulator-url", default=os.environ.get("HERMES_EMULATOR_URL"),
                    help="use an emulator already running at this URL (not started or stopped here)")
    group.addoption("--hermes-image", default=os.environ.get("HERMES_EMULATOR_IMAGE"),
                    help="start the emulator from this image through testcontainers")
    group.addoption("--hermes-emulator-bin", default=None,
                    help="the hermes-emulator bin to start (default: $HERMES_EMULATOR_BIN, else hermes-emulator on PATH)")
    group.addoption("--hermes-api-key", default=None,
                    help="the API key (default: $API_SERVER_KEY with a URL; a fresh random one for an emulator started here)")
    group.addoption("--hermes-version", default=os.environ.get("HERMETIC_HERMES_VERSION"),
                    help="the Hermes release the emulator emulates (0.19.0 or 0.21.0)")


def pytest_configure(config):
    config.addinivalue_line("markers", "hermes_control: the test needs the emulator's control plane (skipped with --hermes-url)")


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--hermes-url"):
        return
    skip = pytest.mark.skip(reason="needs the emulator's control plane; --hermes-url points at a real Hermes")
    for item in items:
        if "hermes_control" in item.keywords:
            item.add_marker(skip)


def _make_server(config):
    opt = config.getoption
    key = opt("--hermes-api-key")
    if opt("--hermes-url"):
        return server.attach(opt("--hermes-url"), key or os.environ.get("API_SERVER_KEY"), is_emulator=False)
    if opt("--hermes-emulator-url"):
        return server.attach(opt("--hermes-emulator-url"), key or os.environ.get("API_SERVER_KEY"), is_emulator=True)
    if opt("--hermes-image"):
        return server.start_container(opt("--hermes-image"), key, opt("--hermes-version"))
    return server.start_bin(opt("--hermes-emulator-bin"), key, opt("--hermes-version"))


_started = []


@pytest.fixture(scope="session")
def hermes_server(request):
    """The session's Hermes server (see the module doc); stopped at the end if started here."""
    try:
        started = _make_server(request.config)
    except process.EmulatorStartError as e:
        pytest.fail(str(e), pytrace=False)
    _started.append(started)
    yield started
    started.stop()
    _started.remove(started)


def _namespace(nodeid):
    return "pytest-" + hashlib.sha256(nodeid.encode()).hexdigest()[:16]


@pytest.fixture
def hermes(hermes_server, request):
    """This test's namespace of the server: its own clock, Script and journal (bodies kept)."""
    handle = Hermes(hermes_server, _namespace(request.node.nodeid))
    if hermes_server.is_emulator:
        handle.reset()
        handle.keep_bodies()
    yield handle
    if hermes_server.is_emulator:
        handle.reset()


@pytest.fixture
def openai_client(hermes):
    """An openai.OpenAI client pointed at the server, in this test's namespace."""
    return hermes.client


def pytest_unconfigure(config):
    # an interrupted session may skip fixture teardown: stop what is still running
    for started in list(_started):
        started.stop()
        _started.remove(started)
    process.stop_all()
