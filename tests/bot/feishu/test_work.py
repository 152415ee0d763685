"""The work in Feishu: a folded collapsible panel above the answer in its card.

The sink against the fake open API (CardKit's card JSON 2.0, element updates with their
sequence numbers): the card opens at the first step with the panel, each step shows as
it starts and ends, and the answer ends with the steps and the preferences it used, each
with when it was said; an answer replied at once carries the same panel; a card opened
without the panel is replaced by one that has it.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.agent.used import UsedPreference
from bot.conversation.work import Step, Work
from bot.feishu.api import FeishuAPI
from tests.bot.feishu.conftest import incoming, reply_sink
from tests.support.feishu_api import FakeFeishuAPI

SAID = UsedPreference(
    "I prefer aisle seats", datetime(2026, 11, 3, tzinfo=UTC), "said on 2026-11-03"
)
RECALL = Step("step1", "Recalling your travel preferences", "in_progress")
SCORE = Step("step2", "Scoring 25 flights, 27 trains, 19 hotels", "in_progress")


def _done(step: Step) -> Step:
    return Step(step.id, step.title, "complete")


@pytest.fixture
def fake(fake_feishu: FakeFeishuAPI) -> FakeFeishuAPI:
    return fake_feishu


def _created_card(fake: FakeFeishuAPI) -> dict[str, Any]:
    [create] = fake.calls_to("card_create")
    card: dict[str, Any] = json.loads(str(create.body["data"]))
    return card


def test_the_steps_show_in_a_folded_panel_while_the_agent_works_and_stay_with_the_answer(
    fake: FakeFeishuAPI, feishu_api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    msg = incoming(fake)
    sink = reply_sink(feishu_api, msg, notices, reaction="OnIt")
    sink.status("Working on it…")
    sink.step(RECALL)  # the card opens now, with the panel
    panel, answer = _created_card(fake)["body"]["elements"]
    assert panel["tag"] == "collapsible_panel" and panel["expanded"] is False
    assert panel["header"]["title"] == {"tag": "plain_text", "content": "How I worked on it"}
    assert panel["elements"] == [
        {"tag": "markdown", "content": "⏳ Recalling your travel preferences", "element_id": "work"}
    ]
    assert answer["element_id"] == "answer"
    [reply] = fake.replies_to(msg.message_id)
    card_id = reply["content"]["data"]["card_id"]

    sink.step(_done(RECALL))
    sink.step(SCORE)
    assert fake.card(card_id)["elements"]["work"] == (
        "✅ Recalling your travel preferences\n⏳ Scoring 25 flights, 27 trains, 19 hotels"
    )
    for piece in ("Your trip: ", "an aisle seat on the 08:05."):
        sink.append(piece)
    sink.step(_done(SCORE))
    sink.work(Work((_done(RECALL), _done(SCORE)), (SAID,), "en"))
    sink.finish()
    sink.close()
    card = fake.card(card_id)
    assert card["elements"]["answer"] == "Your trip: an aisle seat on the 08:05."
    assert card["elements"]["work"] == (
        "✅ Recalling your travel preferences\n"
        "✅ Scoring 25 flights, 27 trains, 19 hotels\n\n"
        "**Preferences I used (1)**\n"
        "- I prefer aisle seats (said on 2026-11-03)"
    )
    assert card["streaming"] is False
    assert len(fake.replies_to(msg.message_id)) == 1  # one card, the answer in it
    sequences = [c.body["sequence"] for c in fake.calls if c.kind in ("card_text", "card_settings")]
    assert sequences == sorted(set(sequences))


def test_an_answer_replied_at_once_carries_the_panel_in_chinese(
    fake: FakeFeishuAPI, feishu_api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    msg = incoming(fake)
    sink = reply_sink(feishu_api, msg, notices, reaction="OnIt")
    used = UsedPreference("出差只坐高铁一等座", SAID.said_at, "2026-11-03 说的")
    sink.work(Work((), (used,), "zh"))
    sink.append("给你订了高铁一等座。")
    sink.finish()
    [reply] = fake.replies_to(msg.message_id)
    panel, answer = reply["content"]["body"]["elements"]
    assert panel["tag"] == "collapsible_panel"
    assert panel["header"]["title"]["content"] == "我是怎么做的"
    assert (
        panel["elements"][0]["content"]
        == "**用到的偏好（1条）**\n- 出差只坐高铁一等座（2026-11-03 说的）"
    )
    assert answer["content"] == "给你订了高铁一等座。"
    assert fake.calls_to("card_create") == []


def test_a_card_opened_without_the_panel_is_replaced_by_one_with_it(
    fake: FakeFeishuAPI, feishu_api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    msg = incoming(fake)
    sink = reply_sink(feishu_api, msg, notices, reaction="")  # a "working on it" card
    sink.status("Working on it…")
    sink.append("Your trip is planned.")
    sink.work(Work((_done(RECALL),), (SAID,), "en"))
    sink.finish()
    sink.close()
    [reply] = fake.replies_to(msg.message_id)
    card = fake.card(reply["content"]["data"]["card_id"])
    assert card["elements"]["answer"] == "Your trip is planned."
    assert "- I prefer aisle seats (said on 2026-11-03)" in card["elements"]["work"]
    assert [e["tag"] for e in card["card"]["body"]["elements"]] == ["collapsible_panel", "markdown"]
