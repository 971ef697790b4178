"""--hermes-url: the same tests against a real Hermes, control-plane ones skipped. The session's
emulator stands in for the real server here (the plugin treats a --hermes-url server as one
without a control plane, whatever answers)."""
import pytest

INNER = '''
import pytest

def test_plain_api_call(openai_client):
    models = openai_client.models.list()
    assert [m.id for m in models.data] == ["hermes-agent"]

def test_calls_the_control_plane(hermes):
    hermes.script("never")

@pytest.mark.hermes_control
def test_marked(hermes):
    raise AssertionError("must not run against a real Hermes")
'''


@pytest.mark.hermes_control
def test_hermes_url_runs_plain_tests_and_skips_control_plane_ones(pytester, hermes_server):
    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest_subprocess("--hermes-url", hermes_server.base_url, "--hermes-api-key", hermes_server.api_key, "-rs")
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines(["*needs the emulator's control plane*"])


URL_INNER = '''
def test_uses_the_running_emulator(hermes, hermes_server):
    assert hermes_server.kind == "emulator-url" and hermes_server.pid is None
    hermes.script("from a running emulator")
    reply = hermes.client.chat.completions.create(model="hermes-agent", messages=[{"role": "user", "content": "hi"}])
    assert reply.choices[0].message.content == "from a running emulator"
'''


@pytest.mark.hermes_control
def test_hermes_emulator_url_uses_a_running_emulator_and_leaves_it_running(pytester, hermes, hermes_server):
    pytester.makepyfile(test_inner=URL_INNER)
    result = pytester.runpytest_subprocess("--hermes-emulator-url", hermes_server.base_url, "--hermes-api-key", hermes_server.api_key)
    result.assert_outcomes(passed=1)
    # not the inner session's to stop: it still answers
    assert hermes_server.health()["status"] == "ok"
