"""Adding a platform is adding a folder: Toy (`tests/toy`), a fourth chat platform with
the four roles of a channel and nothing else, goes the core's one path end to end.

It is built as `travel-bot serve` builds a channel (the composition root's core and
pipeline, its route on the real HTTP server) and spoken to as its platform would: a
message is parsed, claimed once, answered by the conversation through Toy's sink, the
plan under it drawn by Toy's widgets; its *Save trip* button is the core's one flow,
decided once; `/travel-prefs` is the core's command. Nothing in `bot/` names Toy.
"""

from __future__ import annotations

import ast
import time
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot import compose
from bot.channels import PLATFORMS
from bot.conversation.namespaces import namespace_problem
from tests.support.harness import Running, settings_for
from tests.support.llm_server import ScriptedModel
from tests.toy.channel import Toy
from tests.toy.http import CLICKS_PATH, EVENTS_PATH, ToyRoute
from tests.toy.incoming import PLATFORM

TOY = Path(__file__).resolve().parents[2] / "toy"
DEPART = (date.today() + timedelta(days=20)).isoformat()


class ToyBot(Running):
    def __init__(self, settings: Any) -> None:
        super().__init__(settings)
        self.toy = Toy(pipeline=compose.pipeline(settings, self.core))
        self.core.messengers.add(self.toy)  # approvals reach Toy people through it
        pool = self.core.pools.dispatch
        self.web.mount(EVENTS_PATH, ToyRoute(self.toy, pool), methods=("POST",))
        self.web.mount(CLICKS_PATH, ToyRoute(self.toy, pool, clicks=True), methods=("POST",))
        self.serve()

    def send(self, event_id: str, text: str, *, msg: str = "m1") -> None:
        event = {"id": event_id, "team": "t1", "user": "alice", "chat": "c1", "msg": msg}
        response = self.http.post(EVENTS_PATH, json={**event, "text": text, "dm": True})
        assert response.status_code == 200

    def shown(self, kind: str, count: int = 1, timeout: float = 15.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while True:
            found = [item for item in self.toy.outbox if item["kind"] == kind]
            if len(found) >= count or time.monotonic() > deadline:
                return found
            time.sleep(0.02)


@pytest.fixture
def toy(tmp_path: Path, bot_prefix: str, scripted_model: ScriptedModel) -> Iterator[ToyBot]:
    settings = settings_for(
        tmp_path, prefix=bot_prefix, model_url=scripted_model.base_url, database="toy-memory"
    )
    bot = ToyBot(settings)
    yield bot
    bot.close()


def test_a_message_goes_the_one_path_and_its_plan_is_saved_once(
    toy: ToyBot, scripted_model: ScriptedModel
) -> None:
    plan = {"origin": "上海", "destination": "成都", "depart_date": DEPART}
    scripted_model.script([("plan_itinerary", plan)], "Here is your Chengdu plan.")
    toy.send("ev1", "plan my trip from Shanghai to Chengdu")
    toy.send("ev1", "plan my trip from Shanghai to Chengdu")  # the platform's retry
    [answer] = toy.shown("answer")
    assert answer["text"] == "Here is your Chengdu plan."
    [card] = toy.shown("plan")
    assert card["text"].startswith("Shanghai → Chengdu")  # drawn by Toy's widgets
    [save] = card["buttons"]
    assert save["action"] == "trip.save" and save["value"]["ns"] == "toy:t1:alice"
    time.sleep(0.3)
    assert len(toy.shown("answer")) == 1  # answered once
    assert len(scripted_model.requests) == 2  # one turn: the plan, then the answer
    assert toy.core.metrics.value("toy_events_duplicate_total", type="dm") == 1

    click = {"id": "click1", "team": "t1", "user": "alice", "action": save["action"]}
    saved = toy.http.post(CLICKS_PATH, json={**click, "value": save["value"]}).json()
    assert saved["kind"] == "plan" and "Trip saved by @alice." in saved["text"]
    assert toy.core.trips is not None
    [trip] = toy.core.trips.list("toy:t1:alice")
    assert (trip.origin, trip.destination) == ("Shanghai", "Chengdu")
    replayed = toy.http.post(CLICKS_PATH, json={**click, "value": save["value"]}).json()
    assert replayed is None  # the same click, replayed: claimed once, nothing done
    stranger = {**click, "id": "click2", "user": "mallory"}
    refused = toy.http.post(CLICKS_PATH, json={**stranger, "value": save["value"]}).json()
    assert refused["kind"] == "notice" and "Only the traveller" in refused["text"]
    assert len(toy.core.trips.list("toy:t1:alice")) == 1


STRICT = """\
grades: {default: L1}
hotel_cap_per_night: {L1: {tier1: 100, tier2: 100, other: 100}}
approvers: [boss]
"""


def test_an_out_of_policy_save_goes_to_its_approver_and_back_to_the_thread(
    toy: ToyBot, scripted_model: ScriptedModel
) -> None:
    """The core's approval flow on Toy: Toy's own form, card and messages, nothing else."""
    assert toy.core.policy is not None and toy.core.trips is not None
    toy.core.policy.set("toy:t1", STRICT, by="cli:ana")
    plan = {"origin": "上海", "destination": "成都", "depart_date": DEPART}
    scripted_model.script([("plan_itinerary", plan)], "Here is your Chengdu plan.")
    toy.send("ev9", "plan my trip from Shanghai to Chengdu", msg="m9")
    [card] = toy.shown("plan")
    save = card["buttons"][0]
    where = {"chat": "c1", "thread": "m9"}
    click = {"id": "k1", "team": "t1", "user": "alice", "action": save["action"], **where}
    form = toy.http.post(CLICKS_PATH, json={**click, "value": save["value"]}).json()
    assert form["kind"] == "form" and "outside the travel policy" in form["text"]
    [submit] = form["buttons"]
    answer = {**click, "id": "k2", "action": submit["action"], "value": submit["value"]}
    sent = toy.http.post(CLICKS_PATH, json={**answer, "reason": "client next door"}).json()
    assert "Asked @boss" in sent["text"]
    [approval] = toy.shown("approval")
    assert approval["to"] == "toy:t1:boss" and "client next door" in approval["text"]
    approve = approval["buttons"][0]
    decide = {"team": "t1", "action": approve["action"], "value": approve["value"]}
    refused = toy.http.post(CLICKS_PATH, json={**decide, "id": "k3", "user": "mallory"}).json()
    assert refused["kind"] == "notice" and "named approver" in refused["text"]
    decided = toy.http.post(CLICKS_PATH, json={**decide, "id": "k4", "user": "boss"}).json()
    assert decided["state"] == "approved" and decided["buttons"] == []
    replayed = toy.http.post(CLICKS_PATH, json={**decide, "id": "k4", "user": "boss"}).json()
    assert replayed is None  # the same click again: claimed once
    told = [m for m in toy.toy.outbox if m.get("thread") == "m9"]
    assert len(told) == 1 and "boss approved" in told[0]["text"]
    [trip] = toy.core.trips.list("toy:t1:alice")
    assert trip.state == "approved"


def test_its_commands_are_the_cores_and_its_prompt_names_it(
    toy: ToyBot, scripted_model: ScriptedModel
) -> None:
    toy.core.memory.record("toy:t1:alice", ["I prefer aisle seats"])
    toy.send("ev2", "/travel-prefs", msg="m2")
    [shown] = toy.shown("preferences")
    assert "aisle" in shown["text"] and shown["buttons"][0]["action"] == "prefs.forget"
    scripted_model.script("Noted.")
    toy.send("ev3", "hello", msg="m3")
    toy.shown("answer")
    system = scripted_model.requests[0]["messages"][0]["content"]
    assert "a company's Toy chat" in system and "`/travel-prefs` in Toy" in system
    assert namespace_problem("toy:t1:alice", [*PLATFORMS, PLATFORM]) is None


def test_it_shows_the_steps_and_the_preferences_the_answer_used(
    toy: ToyBot, scripted_model: ScriptedModel
) -> None:
    """The core says each step once, as it starts and ends, and with the answer which
    remembered preferences it used and when each was said; Toy only draws them."""
    toy.core.memory.record("toy:t1:alice", ["I never take red-eye flights"])
    toy.core.memory.record("toy:t1:alice", ["I prefer aisle seats"])
    plan = {"origin": "上海", "destination": "成都", "depart_date": DEPART}
    scripted_model.script(
        [("retrieve_from_memory", {"keywords": ["flight", "Chengdu"]})],
        [("plan_itinerary", plan)],
        "Here is your Chengdu plan, without red-eyes.",
    )
    toy.send("ev4", "plan my trip from Shanghai to Chengdu", msg="m4")
    [answer] = toy.shown("answer")
    steps = toy.shown("step")
    titles = list(dict.fromkeys(step["title"] for step in steps))
    assert titles[0] == "Recalling your travel preferences"
    assert titles[1] == "Looking up flights, trains and hotels"
    assert titles[2].startswith("Scoring ") and "flights" in titles[2]
    assert all("…" not in title for title in titles)
    ids = {step["id"]: step for step in steps}  # the last word of each step: done
    assert {step["status"] for step in ids.values()} == {"complete"}
    assert [s["status"] for s in steps if s["id"] == steps[0]["id"]] == [
        "in_progress",
        "complete",
    ]
    [work] = toy.shown("work")
    assert toy.toy.outbox.index(work) < toy.toy.outbox.index(answer)  # before the answer
    used = {item["text"]: item["when"] for item in work["used"]}
    # in Toy's people's time zone (Asia/Shanghai): after 16:00 UTC it is already tomorrow there
    today = datetime.now(ZoneInfo("Asia/Shanghai")).date().isoformat()
    assert used == {
        "I never take red-eye flights": f"said on {today}",
        "I prefer aisle seats": f"said on {today}",
    }
    assert work["title"] == "Preferences I used (2)"


def test_a_turn_that_recalls_nothing_lists_no_preferences(
    toy: ToyBot, scripted_model: ScriptedModel
) -> None:
    scripted_model.script("Hello!")
    toy.send("ev5", "hello", msg="m5")
    toy.shown("answer")
    assert toy.shown("step", timeout=0.2) == [] and toy.shown("work", timeout=0.2) == []


def test_the_folder_is_all_it_takes() -> None:
    """Toy's four roles under the channel file names, and it imports the core only."""
    assert {p.name for p in TOY.glob("*.py")} >= {
        "http.py",
        "incoming.py",
        "sink.py",
        "widgets.py",
        "channel.py",
    }
    others = ("bot.slack", "bot.feishu", "bot.dingtalk", "bot.chat", "bot.compose", "bot.cli")
    for path in TOY.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(others), f"{path.name} imports {node.module}"
