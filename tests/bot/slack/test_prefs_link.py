"""Slack's ways to the web preferences page: the App Home button and `/travel-prefs link`."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx

from bot.messages import t
from bot.prefs.links import read_token
from bot.slack.views import blocks as views
from tests.bot.conftest import BotFactory
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import BotHarness
from tests.support.slack_payloads import buttons, click, open_home, published_home, settle

SECRET = "slack-link-test-secret-77"
ALICE, BOB = "U0ALICE", "U0BOB"


def _linked_bot(make_bot: BotFactory) -> BotHarness:
    bot = make_bot(prefs_link_secret=SECRET, public_url="http://placeholder")
    bot.settings.public_url = bot.server.url  # links point at this very server
    return bot


def _claims(url: str) -> tuple[str, str | None]:
    claims = read_token(SECRET, parse_qs(urlsplit(url).query)["token"][0])
    assert claims is not None
    return claims.namespace, claims.lang


def test_home_offers_the_page_in_the_browser_with_the_persons_own_link(
    make_bot: BotFactory, slack: FakeSlackAPI
) -> None:
    bot = _linked_bot(make_bot)
    slack.add_user(ALICE, locale="zh-CN")
    bot.core.memory.record(bot.namespace(ALICE), ["出差只坐高铁一等座"])
    open_home(bot, ALICE)
    home = published_home(slack, ALICE)
    [button] = buttons(home, views.OPEN_IN_BROWSER_ACTION_ID)
    assert button["text"]["text"] == t("home_open_browser", "zh")
    assert _claims(button["url"]) == (bot.namespace(ALICE), "zh")

    with httpx.Client() as browser:  # the link opens Alice's page
        page = browser.get(button["url"], follow_redirects=True)
    assert page.status_code == 200 and "出差只坐高铁一等座" in page.text

    # Clicking it is only acknowledged (Slack opens the URL itself).
    assert (
        click(bot, ALICE, views.OPEN_IN_BROWSER_ACTION_ID, "browser", view=home).status_code == 200
    )
    settle(bot)
    assert len(slack.calls_to("views.publish")) == 1


def test_home_has_no_browser_button_while_the_page_is_not_set_up(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    open_home(bot, ALICE)
    home = published_home(slack, ALICE)
    assert buttons(home, views.OPEN_IN_BROWSER_ACTION_ID) == []
    assert buttons(home, views.EDIT_ACTION_ID)


def test_travel_prefs_link_answers_only_the_asker_with_their_own_link(
    make_bot: BotFactory, slack: FakeSlackAPI
) -> None:
    bot = _linked_bot(make_bot)
    bot.core.memory.record(bot.namespace(BOB), ["I like quiet rooms"])
    assert bot.command("/travel-prefs", "link", user=ALICE).status_code == 200
    [reply] = slack.wait_for("response_url", timeout=15)
    assert reply.args["response_type"] == "ephemeral"
    assert reply.args["unfurl_links"] is False  # a preview fetch would spend the link
    text = str(reply.args["text"])
    url = next(word for word in text.split() if word.startswith("http"))
    assert _claims(url) == (bot.namespace(ALICE), "en")
    assert "15 minutes" in text
    with httpx.Client() as browser:
        page = browser.get(url, follow_redirects=True)
    assert page.status_code == 200 and "quiet rooms" not in page.text  # Alice's, not Bob's


def test_travel_prefs_link_says_so_when_the_page_is_not_set_up(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    bot.command("/travel-prefs", "link", user=ALICE)
    [reply] = slack.wait_for("response_url", timeout=15)
    assert reply.args["text"] == t("prefs_link_off", "en")


def test_help_mentions_the_link(bot: BotHarness, slack: FakeSlackAPI) -> None:
    bot.command("/travel-prefs", "help", user=ALICE)
    [reply] = slack.wait_for("response_url", timeout=15)
    assert "/travel-prefs link" in str(reply.args["text"])
