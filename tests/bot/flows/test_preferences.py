"""Showing and forgetting one's preferences: only the owner answers, and a *yes* works once."""

from __future__ import annotations

from pathlib import Path

from bot.conversation.claims import Claims
from bot.flows.actions import (
    FORGET_PREFS,
    FORGET_PREFS_NO,
    FORGET_PREFS_YES,
    SHOW_PREFS,
    Action,
    Request,
)
from bot.flows.preferences import PreferenceFlows
from bot.flows.views import Confirmation, Notice, PreferencesView
from bot.messages import t
from bot.metrics import Metrics
from memory import open_memory
from memory.engine import Memory
from tests.support.platforms import FEISHU

ALICE, BOB = "ou_alice", "ou_bob"


def ask(user: str, action: Action) -> Request:
    return Request(FEISHU, "tk", user, action, lang="en")


def test_show_then_forget_asks_first_and_only_the_owner_may_answer_once(
    sqlite_memory: Memory,
) -> None:
    metrics = Metrics()
    flows = PreferenceFlows(
        memory=sqlite_memory,
        metrics=metrics,
        claims=Claims(client=None),
        link=lambda namespace, lang: f"https://prefs.example/{namespace}",
    )
    sqlite_memory.record("feishu:tk:ou_alice", ["I prefer aisle seats", "Window seats on trains"])

    shown = flows.show(ask(ALICE, Action(SHOW_PREFS)))
    assert isinstance(shown.view, PreferencesView)
    assert (
        shown.view.count == 2 and shown.view.edit_url == "https://prefs.example/feishu:tk:ou_alice"
    )
    assert shown.view.forget is not None and shown.view.forget.name == FORGET_PREFS

    asked = flows.ask_forget(ask(ALICE, shown.view.forget))
    assert isinstance(asked.view, Confirmation) and asked.replace
    yes, no = asked.view.yes, asked.view.no
    assert yes.data["owner"] == no.data["owner"] == "feishu:tk:ou_alice"

    refused = flows.forget(ask(BOB, yes))  # a forwarded card, clicked by someone else
    assert refused.tone == "error" and not refused.replace
    assert metrics.value("feishu_forget_refused_total") == 1
    assert flows.cancel(ask(BOB, no)).tone == "error"
    assert len(sqlite_memory.items("feishu:tk:ou_alice")) == 2

    done = flows.forget(ask(ALICE, yes))
    assert isinstance(done.view, Notice) and done.view.key == "prefs_forgot_all"
    assert sqlite_memory.items("feishu:tk:ou_alice") == []
    sqlite_memory.record("feishu:tk:ou_alice", ["A new preference since"])
    again = flows.forget(ask(ALICE, yes))  # the same *yes*, replayed later
    assert isinstance(again.view, Notice) and again.view.key == "prefs_forget_expired"
    assert len(sqlite_memory.items("feishu:tk:ou_alice")) == 1
    # Nothing to forget (Bob has no memory) is said so; asking by command needs no owner.
    nothing = flows.ask_forget(ask(BOB, Action(FORGET_PREFS)))
    assert isinstance(nothing.view, Notice) and nothing.view.key == "prefs_forget_nothing"
    assert flows.cancel(ask(BOB, Action(FORGET_PREFS_NO))).tone == "info"


def test_forget_everything_while_memory_is_down_says_nothing_was_erased(tmp_path: Path) -> None:
    """The person asked to erase; "nothing was remembered" would read as if it were done."""
    broken = open_memory(dsn=f"sqlite:///{tmp_path}", redis_url="")  # a directory: unusable
    flows = PreferenceFlows(memory=broken, metrics=Metrics(), claims=Claims(client=None))
    yes = Action(FORGET_PREFS_YES, {"owner": "feishu:tk:ou_alice"})
    for lang in ("en", "zh"):
        failed = flows.forget(Request(FEISHU, "tk", ALICE, yes, lang=lang))
        assert isinstance(failed.view, Notice) and failed.tone == "error"
        assert failed.text == t("memory_forget_failed", lang)
    broken.close()
