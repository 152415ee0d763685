"""Self-test: the fake Slack Web API streams and refuses like Slack, through the real SDK."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web import WebClient

from tests.support.slack_api import STREAM_TEXT_LIMIT, FakeSlackAPI


@pytest.fixture
def fake() -> Iterator[FakeSlackAPI]:
    with FakeSlackAPI(token="xoxb-t") as slack:
        yield slack


@pytest.fixture
def client(fake: FakeSlackAPI) -> WebClient:
    return WebClient(token="xoxb-t", base_url=fake.base_url)


def _error(call: object) -> str:
    assert isinstance(call, SlackApiError)
    return str(call.response["error"])


def test_a_stream_grows_then_stops_once(fake: FakeSlackAPI, client: WebClient) -> None:
    started = client.chat_startStream(channel="D1", thread_ts="1.0", markdown_text="Hello ")
    ts = str(started["ts"])
    assert fake.shown("D1", "1.0") == []  # still streaming: not finished yet
    client.chat_appendStream(channel="D1", ts=ts, markdown_text="from ")
    client.chat_appendStream(
        channel="D1", ts=ts, chunks=[{"type": "markdown_text", "text": "the fake"}]
    )
    block = {"type": "context_actions", "elements": []}
    client.chat_stopStream(channel="D1", ts=ts, markdown_text="!", blocks=[block])
    [message] = fake.wait_shown("D1", "1.0")
    assert message["text"] == "Hello from the fake!" and message["blocks"] == [block]

    with pytest.raises(SlackApiError) as twice:
        client.chat_stopStream(channel="D1", ts=ts)
    assert _error(twice.value) == "message_not_in_streaming_state"
    with pytest.raises(SlackApiError) as late:
        client.chat_appendStream(channel="D1", ts=ts, markdown_text="more")
    assert _error(late.value) == "message_not_in_streaming_state"


def test_streams_are_refused_where_slack_refuses_them(
    fake: FakeSlackAPI, client: WebClient
) -> None:
    with pytest.raises(SlackApiError) as no_thread:
        client.chat_startStream(channel="D1", thread_ts="", markdown_text="hi")
    assert _error(no_thread.value) == "invalid_arguments"
    with pytest.raises(SlackApiError) as no_recipient:
        client.chat_startStream(channel="C1", thread_ts="1.0", markdown_text="hi")
    assert _error(no_recipient.value) == "missing_recipient_team_id"
    with pytest.raises(SlackApiError) as too_long:
        client.chat_startStream(
            channel="D1", thread_ts="1.0", markdown_text="x" * (STREAM_TEXT_LIMIT + 1)
        )
    assert _error(too_long.value) == "msg_too_long"
    in_channel = client.chat_startStream(
        channel="C1",
        thread_ts="1.0",
        recipient_team_id="T1",
        recipient_user_id="U1",
        markdown_text="ok",
    )
    ts = str(in_channel["ts"])
    fake.stop_stream_by_user(ts)
    with pytest.raises(SlackApiError) as stopped:
        client.chat_appendStream(channel="C1", ts=ts, markdown_text="more")
    assert _error(stopped.value) == "stopped_by_user"

    fake.forget("chat.startStream")
    with pytest.raises(SlackApiError) as unknown:
        client.chat_startStream(channel="D1", thread_ts="1.0", markdown_text="hi")
    assert _error(unknown.value) == "unknown_method"


def test_assistant_methods_record_what_the_pane_shows(
    fake: FakeSlackAPI, client: WebClient
) -> None:
    client.assistant_threads_setStatus(channel_id="D1", thread_ts="1.0", status="Thinking…")
    client.assistant_threads_setStatus(channel_id="D1", thread_ts="1.0", status="")
    client.assistant_threads_setTitle(channel_id="D1", thread_ts="1.0", title="Chengdu")
    client.assistant_threads_setSuggestedPrompts(
        channel_id="D1", thread_ts="1.0", prompts=[{"title": "a", "message": "b"}]
    )
    assert fake.statuses("D1", "1.0") == ["Thinking…", ""]
    [title] = fake.calls_to("assistant.threads.setTitle")  # form-encoded, unlike the others
    assert title.args["title"] == "Chengdu"
    with pytest.raises(SlackApiError):
        client.assistant_threads_setSuggestedPrompts(channel_id="D1", prompts=[])
