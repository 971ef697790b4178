"""The fixtures against the session's emulator (bin, image or URL: whichever the run chose)."""
import pytest

from pytest_hermetic import ControlPlaneError, JournalExpectationFailed

pytestmark = pytest.mark.hermes_control


def test_scripted_reply_through_the_openai_sdk_and_its_journal_entry(hermes, openai_client):
    hermes.script("Bonjour, Ada !")
    reply = openai_client.chat.completions.create(model="hermes-agent", messages=[{"role": "user", "content": "Greet Ada"}])
    assert reply.choices[0].message.content == "Bonjour, Ada !"
    entry = hermes.expect_request(operation="chat.completions", text="Greet Ada")
    assert entry["request"]["headers"]["authorization"] == "[REDACTED]"
    [call] = hermes.model_calls(operation="chat.completions")
    assert call["messages"] == [{"role": "user", "content": "Greet Ada"}]


def test_streamed_reply(hermes):
    hermes.script({"replies": [{"text": "streamed reply", "chunks": ["streamed ", "reply"]}]})
    stream = hermes.client.chat.completions.create(model="hermes-agent", messages=[{"role": "user", "content": "hi"}], stream=True)
    assert "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices) == "streamed reply"


def test_each_test_has_its_own_namespace(hermes, hermes_server):
    # nothing another test scripted or sent is visible here
    assert hermes.journal(operation="chat.completions") == []
    assert hermes.namespace.startswith("pytest-")
    assert hermes.base_url == hermes_server.base_url


def test_expect_request_fails_with_what_the_journal_holds(hermes):
    hermes.script("ok")
    hermes.client.chat.completions.create(model="hermes-agent", messages=[{"role": "user", "content": "one"}])
    with pytest.raises(JournalExpectationFailed) as failure:
        hermes.expect_request(operation="chat.completions", text="two")
    message = str(failure.value)
    assert "found 0" in message
    assert "POST /v1/chat/completions (chat.completions) -> 200" in message
    hermes.expect_no_request(operation="runs.create")
    assert hermes.expect_request(operation="chat.completions", times=1)["status"] == 200


def test_clock_faults_and_snapshots(hermes):
    hermes.clock(freeze=True)  # a frozen clock moves only when told
    assert hermes.clock(set=1_900_000_000) == 1_900_000_000
    assert hermes.clock(advance=60) == 1_900_000_060
    hermes.arm_fault(route="chat.completions", status=503, times=1)
    import openai

    with pytest.raises(openai.APIStatusError) as refused:
        hermes.client.chat.completions.create(model="hermes-agent", messages=[{"role": "user", "content": "x"}])
    assert refused.value.status_code == 503

    hermes.script("Noted: blue.")
    hermes.client.chat.completions.create(
        model="hermes-agent",
        messages=[{"role": "user", "content": "My favourite colour is blue."}],
        extra_headers={"x-hermes-session-id": "support-42"},
    )
    snapshot = hermes.save_snapshot()
    hermes.reset()
    assert hermes.save_snapshot()["tables"]["hermes_sessions"] == []
    assert hermes.load_snapshot(snapshot)["hermes_messages"] == 2


def test_a_refused_control_call_raises_with_the_emulators_reason(hermes):
    with pytest.raises(ControlPlaneError) as refused:
        hermes.script({"replies": "not a list"})
    assert refused.value.status == 400
    assert "invalid Script" in refused.value.body
