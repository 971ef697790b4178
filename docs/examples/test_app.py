"""Testing a Python application against hermetic's emulator with the pytest-hermetic plugin.

    pip install pytest-hermetic[openai]
    pytest --hermes-emulator-bin node_modules/.bin/hermes-emulator   # or --hermes-image / --hermes-url
"""
import pytest


# Your application code: anything that takes an OpenAI-compatible client.
def greet(client, name):
    reply = client.chat.completions.create(
        model="hermes-agent", messages=[{"role": "user", "content": f"Greet {name} in French"}]
    )
    return reply.choices[0].message.content


# Runs against a real Hermes too (--hermes-url): it needs no control plane.
def test_the_api_lists_its_model(openai_client):
    assert [model.id for model in openai_client.models.list().data] == ["hermes-agent"]


@pytest.mark.hermes_control
def test_greets_with_what_the_model_says_and_sends_the_name(hermes):
    hermes.script("Bonjour, Ada !")  # what the model answers, in this test's own namespace

    assert greet(hermes.client, "Ada") == "Bonjour, Ada !"

    entry = hermes.expect_request(operation="chat.completions", text="Greet Ada")
    assert entry["request"]["headers"]["authorization"] == "[REDACTED]"
    assert entry["modelCalls"][0]["messages"] == [{"role": "user", "content": "Greet Ada in French"}]


@pytest.mark.hermes_control
def test_snapshot_round_trip(hermes):
    hermes.script("Bonjour, Grace !")
    greet(hermes.client, "Grace")
    snapshot = hermes.save_snapshot()
    hermes.reset()
    assert hermes.save_snapshot()["tables"]["hermes_sessions"] == []

    assert hermes.load_snapshot(snapshot)["hermes_messages"] == 2
