"""A third-party Hermes client (PyPI hermes-agent-api-client, Python >= 3.13) against the session's
server: capability discovery and a streamed chat completion. It sends no namespace header, so its
requests land in the namespace "default"."""
import asyncio
import sys

import pytest

from pytest_hermetic import Hermes

if sys.version_info < (3, 13):
    pytest.skip(f"hermes-agent-api-client needs Python >= 3.13; this is {sys.version.split()[0]}", allow_module_level=True)
client_module = pytest.importorskip("hermes_agent_api_client", reason="pip install hermes-agent-api-client")


@pytest.mark.hermes_control
def test_discovers_and_streams(hermes_server):
    default = Hermes(hermes_server, "default")
    default.script("streamed to a typed client")

    async def talk():
        async with client_module.HermesAgentApiClient(hermes_server.base_url, hermes_server.api_key) as client:
            capabilities = await client.probe_capabilities()
            events = [e async for e in client.stream_chat_events({"model": "hermes-agent", "messages": [{"role": "user", "content": "hi"}], "stream": True})]
            return capabilities, events

    capabilities, events = asyncio.run(talk())
    assert capabilities.chat_completions_streaming is True
    assert any(isinstance(e, client_module.TerminalEvent) for e in events)
    default.expect_request(operation="chat.completions", text="hi")
