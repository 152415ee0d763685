"""`travel-bot feishu`: lark-oapi's long connection against a local server speaking its frames."""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bot.cli.run import feishu_command
from bot.feishu.long_connection import LongConnection
from tests.bot.feishu.conftest import FeishuSettings
from tests.support import feishu_events as events
from tests.support.feishu_api import FakeFeishuAPI
from tests.support.feishu_harness import TENANT, VERIFICATION_TOKEN, card_text, new_message_id
from tests.support.feishu_ws import FeishuLongConnectionServer
from tests.support.llm_server import ScriptedModel

ALICE = "ou_alice"


@pytest.fixture
def ws(fake_feishu: FakeFeishuAPI) -> Iterator[FeishuLongConnectionServer]:
    server = FeishuLongConnectionServer(reconnect_interval=1).start()
    fake_feishu.ws = server
    yield server
    server.close()


class Running:
    """`travel-bot feishu` on a thread of the test, stopped like SIGTERM stops it."""

    def __init__(self, settings: Any) -> None:
        self.stop = threading.Event()
        self.code: int | None = None
        self.thread = threading.Thread(target=self._run, args=(settings,), daemon=True)
        self.thread.start()

    def _run(self, settings: Any) -> None:
        self.code = feishu_command(argparse.Namespace(), settings, stop=self.stop)

    def close(self, timeout: float = 30.0) -> int | None:
        self.stop.set()
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "travel-bot feishu did not stop"
        return self.code


def _dm(text: str, **extra: Any) -> dict[str, Any]:
    return events.message_event(
        token=VERIFICATION_TOKEN,
        tenant=TENANT,
        sender=ALICE,
        chat_id=f"oc_p2p_{ALICE}",
        chat_type="p2p",
        message_id=extra.pop("message_id", None) or new_message_id(),
        text=text,
        **extra,
    )


def _known(fake: FakeFeishuAPI, body: dict[str, Any]) -> None:
    message = body["event"]["message"]
    fake.add_message(message["message_id"], chat_id=message["chat_id"], sender=ALICE)


def test_messages_over_the_long_connection_are_acked_at_once_answered_once_and_it_stops_clean(
    make_feishu_settings: FeishuSettings,
    fake_feishu: FakeFeishuAPI,
    ws: FeishuLongConnectionServer,
    scripted_model: ScriptedModel,
) -> None:
    running = Running(make_feishu_settings())
    try:
        ws.wait_connected(timeout=60)
        scripted_model.script(
            [("record_to_memory", {"thinking": "a preference", "content": ["出差只坐高铁一等座"]})],
            "好的，记住了。",
        )
        body = _dm("出差只坐高铁一等座")
        _known(fake_feishu, body)
        started = time.monotonic()
        pushed = ws.push(body, parts=2)  # one event in two frames, as Feishu may send it
        ack = ws.wait_for_ack(pushed)
        assert ack.code == 200 and time.monotonic() - started < 2.0
        message_id = body["event"]["message"]["message_id"]
        fake_feishu.wait_for("reply", ok=True, timeout=20)
        [reply] = fake_feishu.replies_to(message_id)
        if reply["content"].get("type") == "card":  # streamed: wait for the card to close
            card_id = reply["content"]["data"]["card_id"]
            fake_feishu.wait_for(
                "card_settings", where=lambda c: c.params.get("id") == card_id, timeout=20
            )
            # The card opened at the agent's first step: the answer, and the step in the
            # folded work panel above it.
            shown = fake_feishu.card(card_id)["elements"]
            assert shown["answer"] == "好的，记住了。"
            assert shown["work"] == "✅ 正在记下你的出行偏好"
        else:
            assert card_text(reply["content"], fake_feishu) == "好的，记住了。"

        # The server drops the connection; the client comes back and a replay of the same
        # event (Feishu re-pushes what it thinks was missed) gets no second answer.
        asked = len(scripted_model.requests)
        ws.drop_connections()
        ws.wait_connected(timeout=20)
        deadline = time.monotonic() + 20
        while ws.connects < 2:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        replayed = ws.push(body)
        assert ws.wait_for_ack(replayed).code == 200
        time.sleep(0.5)
        assert len(fake_feishu.replies_to(message_id)) == 1
        assert len(scripted_model.requests) == asked
    finally:
        assert running.close() == 0
    ws.wait_disconnected()
    connects = ws.connects
    time.sleep(2.5)  # over twice the reconnect interval: a live client would be back
    assert ws.connects == connects and ws.connected == 0


def test_a_card_button_is_answered_in_the_acknowledgement(
    make_feishu_settings: FeishuSettings,
    fake_feishu: FakeFeishuAPI,
    ws: FeishuLongConnectionServer,
) -> None:
    running = Running(make_feishu_settings())
    try:
        ws.wait_connected(timeout=60)
        click = events.card_action(
            token=VERIFICATION_TOKEN,
            tenant=TENANT,
            operator=ALICE,
            value={"a": "prefs.forget.no", "owner": ALICE, "l": "en"},
            message_id="om_card",
        )
        ack = ws.wait_for_ack(ws.push(click))
        assert ack.code == 200
        assert ack.data is not None
        assert "didn't forget anything" in card_text(ack.data["card"]["data"])
    finally:
        running.close()


def test_a_wrong_secret_fails_fast_and_says_so(
    make_feishu_settings: FeishuSettings,
    ws: FeishuLongConnectionServer,
    capsys: pytest.CaptureFixture[str],
) -> None:
    settings = make_feishu_settings(feishu_app_secret="not-the-secret")
    code = feishu_command(argparse.Namespace(), settings, stop=threading.Event())
    assert code == 1
    assert "long connection failed" in capsys.readouterr().err
    assert ws.connects == 0


def test_one_long_connection_per_process(
    fake_feishu: FakeFeishuAPI, ws: FeishuLongConnectionServer
) -> None:
    def connection() -> LongConnection:
        return LongConnection(
            app_id=fake_feishu.app_id,
            app_secret=fake_feishu.app_secret,
            handler=None,
            domain=fake_feishu.base_url,
        )

    first = connection()
    assert first.start(timeout=20)
    try:
        with pytest.raises(RuntimeError, match="one Feishu long connection per process"):
            connection().start()
    finally:
        first.stop()
    ws.wait_disconnected()
    again = connection()  # once stopped, the process may connect again
    try:
        assert again.start(timeout=20)
    finally:
        again.stop()
