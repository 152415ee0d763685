"""What each channel sends again after a transport failure: a request that never left,
always; one the server may have acted on (read, then the connection reset), only when
the platform deduplicates it. Real clients against `tests.support.taker`'s servers."""

from __future__ import annotations

import pytest
import requests

from bot.feishu.api import FeishuAPI, FeishuUnavailable
from bot.flows.messengers import Sent
from bot.slack.answers import post
from bot.slack.api import web_client
from tests.support.taker import Taker


def test_slack_does_not_post_again_after_a_reset_when_slack_may_have_posted(
    taker: Taker,
) -> None:
    client = web_client(token="xoxb-test", base_url=taker.url.removesuffix("chat.postMessage"))
    tried = post(client, "C1", "Your Chengdu plan")
    assert tried.sent == Sent.UNCONFIRMED  # said as such, never as not delivered
    assert taker.taken == 1  # the SDK's own handler posted it three times


def test_slack_tries_again_when_the_connection_was_refused(closed_url: str) -> None:
    client = web_client(token="xoxb-test", base_url=closed_url.removesuffix("chat.postMessage"))
    [handler] = client.retry_handlers
    with pytest.raises(OSError) as raised:
        client.chat_postMessage(channel="C1", text="hi")
    assert handler.max_retry_count == 2
    assert handler._can_retry(  # what the client retried: a refusal
        state=None,  # type: ignore[arg-type]
        request=None,  # type: ignore[arg-type]
        error=raised.value,
    )


@pytest.mark.parametrize(("resend", "attempts"), [(False, 1), (True, 2)])
def test_feishu_sends_again_after_a_reset_only_what_feishu_deduplicates(
    taker: Taker, resend: bool, attempts: int
) -> None:
    api = FeishuAPI(app_id="cli_test", app_secret="secret", sleep=lambda _: None)
    with pytest.raises(FeishuUnavailable):
        api.call("send", lambda: requests.post(taker.url, json={}, timeout=5), resend=resend)
    assert taker.taken == attempts


def test_feishu_tries_again_when_the_connection_was_refused(closed_url: str) -> None:
    api = FeishuAPI(app_id="cli_test", app_secret="secret", sleep=lambda _: None)
    tries: list[int] = []

    def send() -> object:
        tries.append(1)
        return requests.post(closed_url, json={}, timeout=5)

    with pytest.raises(FeishuUnavailable):
        api.call("send", send, resend=False)
    assert len(tries) == 2
