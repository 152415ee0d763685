"""Links and sessions end: a link opened on the page is spent for the API too, and erasing
all of a person's memory, wherever it is done, ends every link and session they had.

Each eraser is the real one (the Slack Home button, `/travel-prefs forget`, the command
line, the console) against the real page on the real server; the old link, its session
and a bearer token are then tried as an attacker holding them would.
"""

from __future__ import annotations

import html
import io
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.cli import logs, main
from bot.cli.chat import run_console
from bot.messages import t
from bot.prefs.links import LINK_PURPOSE, Signer
from bot.prefs.revocations import Revocations, now_ms
from bot.slack.views import blocks as views
from memory.redis_client import open_redis
from tests.bot.conftest import BotFactory
from tests.bot.web.conftest import ALICE, BOB, SECRET, PrefsBot, start_prefs_bot
from tests.support.redis_server import RedisServer
from tests.support.slack_payloads import buttons, click, open_home, published_home, told

API = "/api/preferences"
JSON = {"Content-Type": "application/json"}


def _csrf(page: str) -> str:
    match = re.search(r'<meta name="csrf-token" content="([0-9a-f]+)">', page)
    assert match
    return match.group(1)


def test_a_link_opened_on_the_page_is_spent_as_a_bearer_token_too(prefs_bot: PrefsBot) -> None:
    prefs_bot.memory.record(prefs_bot.namespace(), ["I like quiet rooms"])
    link = prefs_bot.link()
    token = link.split("token=", 1)[1]
    api = prefs_bot.api(token)
    assert api.get(API).status_code == 200  # a bearer token until it is opened
    assert prefs_bot.client().get(link, follow_redirects=True).status_code == 200
    assert api.get(API).status_code == 401
    posted = api.post(API, content=json.dumps({"note": "Late checkout"}), headers=JSON)
    assert posted.status_code == 401
    assert [i.text for i in prefs_bot.memory.items(prefs_bot.namespace())] == ["I like quiet rooms"]


Eraser = Callable[[PrefsBot], None]


def _slack_home(bot: PrefsBot) -> None:
    harness, slack = bot.harness, bot.harness.slack
    open_home(harness, ALICE)
    home = published_home(slack, ALICE)
    [forget_all] = buttons(home, views.FORGET_ALL_ACTION_ID)
    click(harness, ALICE, views.FORGET_ALL_ACTION_ID, forget_all["value"], view=home)
    told(slack, ALICE)


def _slack_command(bot: PrefsBot) -> None:
    harness, slack = bot.harness, bot.harness.slack
    url = slack.response_url("forget")
    click(harness, ALICE, views.FORGET_ALL_CONFIRM_ACTION_ID, ALICE, response_url=url)
    slack.wait_for("response_url")
    harness.drain()


def _command_line(bot: PrefsBot) -> None:
    settings = bot.harness.settings
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMORY_DSN", settings.memory_dsn)
        patch.setenv("REDIS_URL", settings.redis_url)
        patch.setenv("REDIS_KEY_PREFIX", settings.redis_key_prefix)
        assert main(["memory", "forget", "--user", bot.namespace(), "--all", "--yes"]) == 0
    logs.reset()


def _console(bot: PrefsBot) -> None:
    out = io.StringIO()
    status = run_console(
        bot.harness.settings,
        user=bot.namespace(),
        stdin=io.StringIO("/forget all\ny\n"),  # the console asks first
        stdout=out,
        memory=bot.memory,
    )
    assert status == 0 and "Forgot 1 item(s)." in out.getvalue()


@pytest.mark.parametrize(
    "erase",
    [_slack_home, _slack_command, _command_line, _console],
    ids=["slack-home", "slack-command", "command-line", "console"],
)
def test_erasing_everything_ends_every_link_and_session(
    prefs_bot: PrefsBot, erase: Eraser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the command line reads no .env of the repository
    ns = prefs_bot.namespace()
    prefs_bot.memory.record(ns, ["I never take red-eye flights"])
    prefs_bot.memory.record(prefs_bot.namespace(BOB), ["I prefer aisle seats"])
    browser = prefs_bot.signed_in()  # a session on the page
    csrf = _csrf(browser.get("/prefs").text)
    unopened = prefs_bot.link()  # a link not opened yet
    bearer = prefs_bot.api(unopened.split("token=", 1)[1])
    assert bearer.get(API).status_code == 200
    bobs = prefs_bot.signed_in(BOB)

    erase(prefs_bot)
    assert prefs_bot.memory.items(ns) == []

    note = json.dumps({"note": "I like quiet rooms"})
    assert bearer.get(API).status_code == 401
    assert bearer.post(API, content=note, headers=JSON).status_code == 401
    assert browser.get("/prefs").status_code == 401
    assert (
        browser.post(API, content=note, headers={**JSON, "X-CSRF-Token": csrf}).status_code == 401
    )
    assert browser.post("/prefs", data={"note": "x", "csrf_token": csrf}).status_code == 401
    assert prefs_bot.client().get(unopened, follow_redirects=True).status_code == 401
    assert prefs_bot.memory.items(ns) == []  # nothing saved into the wiped memory
    # Someone else's session goes on; and a new link of the person's own works again.
    assert bobs.get("/prefs").status_code == 200
    assert prefs_bot.client().get(prefs_bot.link(), follow_redirects=True).status_code == 200


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path).start()
    yield server
    server.stop()


def test_with_redis_down_the_page_reads_but_changes_nothing(
    make_bot: BotFactory, private_redis: RedisServer
) -> None:
    bot = start_prefs_bot(make_bot, redis_url=private_redis.url)
    try:
        ns = bot.namespace()
        bot.memory.record(ns, ["I like quiet rooms"])
        browser = bot.signed_in()
        csrf = _csrf(browser.get("/prefs").text)
        bearer = bot.api(bot.link().split("token=", 1)[1])
        private_redis.kill()

        assert browser.get("/prefs").status_code == 200
        assert bearer.get(API).status_code == 200
        note = json.dumps({"note": "Late checkout"})
        refused = bearer.post(API, content=note, headers=JSON)
        assert refused.status_code == 503 and refused.json()["error"] == "unavailable"
        # The person was changing, not reading: "I can't read your preferences" is untrue.
        assert refused.json()["message"] == t("prefs_change_unavailable", "en")
        posted = browser.post(API, content=note, headers={**JSON, "X-CSRF-Token": csrf})
        assert posted.status_code == 503
        saved = browser.post("/prefs", data={"note": "x", "csrf_token": csrf})
        assert saved.status_code == 503
        assert t("prefs_change_unavailable", "en") in html.unescape(saved.text)
        assert t("home_unavailable", "en") not in html.unescape(saved.text)
        [fact] = bot.memory.items(ns)
        forget = {"id": fact.id, "csrf_token": csrf}
        forgot = browser.post("/prefs/forget", data=forget)
        assert forgot.status_code == 503
        assert t("prefs_change_unavailable", "en") in html.unescape(forgot.text)
        assert [i.text for i in bot.memory.items(ns)] == ["I like quiet rooms"]
    finally:
        bot.close()


def test_a_revocation_made_while_redis_is_down_holds_here_and_reaches_redis_later(
    private_redis: RedisServer,
) -> None:
    here = Revocations(client=open_redis(private_redis.url, timeout=0.5), owns_client=True)
    elsewhere = Revocations(client=open_redis(private_redis.url, timeout=0.5), owns_client=True)
    try:
        issued = now_ms()
        private_redis.kill()
        assert here.revoke("T1:U1") is False  # Redis did not take it
        assert here.standing("T1:U1", issued) == "revoked"  # this process refuses at once
        assert elsewhere.standing("T1:U1", issued) == "unknown"  # others cannot tell
        private_redis.start()  # back, empty
        assert elsewhere.standing("T1:U1", issued) == "valid"  # not written through yet
        assert here.standing("T1:U2", issued) == "valid"  # its next call writes it through
        assert elsewhere.standing("T1:U1", issued) == "revoked"
        assert elsewhere.standing("T1:U1", now_ms() + 1) == "valid"  # issued afterwards
    finally:
        here.close()
        elsewhere.close()


def test_the_command_line_warns_when_it_could_not_revoke(
    prefs_bot: PrefsBot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    settings = prefs_bot.harness.settings
    prefs_bot.memory.record(prefs_bot.namespace(), ["I like quiet rooms"])
    monkeypatch.setenv("MEMORY_DSN", settings.memory_dsn)
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")  # nothing listens there
    assert main(["memory", "forget", "--user", prefs_bot.namespace(), "--all", "--yes"]) == 0
    logs.reset()
    err = capsys.readouterr().err
    assert "stay usable until they expire" in err
    assert prefs_bot.memory.items(prefs_bot.namespace()) == []


def test_links_from_before_this_release_end_with_any_revocation(prefs_bot: PrefsBot) -> None:
    """A token without `i` (issued before links said when) counts as issued at 0."""
    payload = {"n": prefs_bot.namespace(), "e": int(time.time()) + 900, "j": "legacy-link-1"}
    legacy = Signer(SECRET, LINK_PURPOSE).sign(payload)
    api = prefs_bot.api(legacy)
    assert api.get(API).status_code == 200
    revocations = prefs_bot.harness.core.revocations
    revocations.revoke(prefs_bot.namespace(BOB))
    assert api.get(API).status_code == 200  # Bob's revocation, not Alice's
    revocations.revoke(prefs_bot.namespace())
    assert api.get(API).status_code == 401
