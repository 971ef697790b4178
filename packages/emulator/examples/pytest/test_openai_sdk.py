"""Your Python code under test, against the emulator, through the official openai SDK."""


def test_chat_completion(emulator):
    emulator.script("Hello from the emulator")
    completion = emulator.client().chat.completions.create(
        model="hermes-agent", messages=[{"role": "user", "content": "hi"}]
    )
    assert completion.choices[0].message.content == "Hello from the emulator"


def test_streamed_chat_completion(emulator):
    emulator.script("streamed reply")
    stream = emulator.client().chat.completions.create(
        model="hermes-agent", messages=[{"role": "user", "content": "hi"}], stream=True
    )
    assert "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices) == "streamed reply"
