"""The preferences page in a real browser: Debian's headless Chromium, driven by Playwright.

A person opens their link from another site (as from a chat app), sees the prefilled
form, changes two slots (one by keyboard) and the note, saves, reads the result, forgets
one fact; memory is then checked through its own API. Fields are found by their
accessible roles and names, so the labels, fieldsets and button names are checked too.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from bot.messages import t
from tests.bot.web.conftest import PrefsBot
from tests.support.browser import chromium, require_chromium
from tests.support.sentences import HANDS_OVER, ROW_EN
from tests.support.stored import store_unchecked

QUIET = "I like quiet rooms"
INJECTED = '<img src=x onerror="window.pwned = 1"> hotels near the office'


def _open_from_another_site(page: Any, link: str) -> None:
    """Click the link on a page of another origin, as from a chat message."""
    page.set_content(f'<a id="go" href="{html.escape(link)}">preferences</a>')
    page.click("#go")
    page.wait_for_selector("form.prefs")


def test_open_prefill_change_save_and_forget_in_a_browser(
    prefs_bot: PrefsBot, tmp_path: Path
) -> None:
    require_chromium()
    ns, memory = prefs_bot.namespace(), prefs_bot.memory
    memory.record(ns, ["I prefer aisle seats", QUIET, "On trains I like a window seat"])
    # The guard refuses markup today; a fact kept before it (or by another backend) must
    # still be shown as text by the page.
    store_unchecked(memory, ns, [INJECTED])
    errors: list[str] = []
    dialogs: list[str] = []
    with chromium(tmp_path / "profile") as browser:
        page = browser.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))

        def answer(dialog: Any) -> None:
            dialogs.append(dialog.message)
            dialog.accept()

        page.on("dialog", answer)
        _open_from_another_site(page, prefs_bot.link(lang="en"))
        assert "token=" not in page.url  # the token left the address bar

        # The prefilled form, by accessible names.
        seat = page.get_by_role("group", name="Seat", exact=True)
        assert seat.get_by_role("radio", name="Aisle", exact=True).is_checked()
        assert "trains: Window" in seat.inner_text()
        cabin = page.get_by_role("group", name="Cabin class", exact=True)
        assert cabin.get_by_role("radio", name="No preference", exact=True).is_checked()
        facts = page.locator(".fact-list li")
        assert facts.count() == 4
        assert facts.get_by_text(INJECTED, exact=True).count() == 1  # shown as text ...
        assert page.evaluate("window.pwned") is None  # ... and never run
        # Readable on a phone: nothing wider than the screen.
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

        # Two slots (one by keyboard: arrow keys move within a radio group) and the note.
        seat.get_by_role("radio", name="Aisle", exact=True).focus()
        page.keyboard.press("ArrowLeft")
        assert seat.get_by_role("radio", name="Window", exact=True).is_checked()
        cabin.get_by_role("radio", name="Business", exact=True).check()
        page.get_by_label("Anything else?").fill("A quiet room away from the lift")
        page.get_by_role("button", name="Save", exact=True).click()

        result = page.locator("#result")
        result.wait_for()
        assert "Saved your travel preferences." in result.inner_text()
        assert "Also noted: “A quiet room away from the lift”" in result.inner_text()
        assert page.evaluate("document.activeElement.id") == "result"  # focus on the news
        seat = page.get_by_role("group", name="Seat", exact=True)
        assert seat.get_by_role("radio", name="Window", exact=True).is_checked()

        # Forget one fact; the page asks first.
        page.get_by_role("button", name=f"Forget “{QUIET}”", exact=True).click()
        page.locator("#result", has_text=f"Forgot “{QUIET}”.").wait_for()
        assert dialogs == [f"Forget “{QUIET}”? This can't be undone."]
        assert page.get_by_text(QUIET, exact=True).count() == 0
        assert errors == []  # no script error, no blocked resource (CSP)

    profile = memory.profile(ns)
    assert profile["seat"] == "window" and profile["cabin_class"] == "business"
    texts = {item.text for item in memory.items(ns)}
    assert QUIET not in texts and "A quiet room away from the lift" in texts
    assert "On trains I like a window seat" in texts  # the scoped value stays
    summary = memory.retrieve(ns)
    assert "window seat" in summary and QUIET not in summary


def test_the_form_works_with_javascript_off(prefs_bot: PrefsBot, tmp_path: Path) -> None:
    require_chromium()
    ns, memory = prefs_bot.namespace(), prefs_bot.memory
    memory.record(ns, ["出差只坐高铁一等座", "喜欢安静的房间"])
    with chromium(tmp_path / "profile", java_script_enabled=False, locale="zh-CN") as browser:
        page = browser.new_page()
        page.goto(prefs_bot.link())  # no language in the link: the browser's is used
        assert page.get_attribute("html", "lang") == "zh-CN"
        rail = page.get_by_role("group", name="高铁座席", exact=True)
        assert rail.get_by_role("radio", name="一等座", exact=True).is_checked()
        rail.get_by_role("radio", name="二等座", exact=True).check()
        page.get_by_role("group", name="红眼航班", exact=True).get_by_role(
            "radio", name="避开红眼航班", exact=True
        ).check()
        page.get_by_role("button", name="保存", exact=True).click()
        assert "已保存你的出行偏好。" in page.locator("#result").inner_text()
        page.get_by_role("button", name="删除“喜欢安静的房间”", exact=True).click()
        assert "已删除“喜欢安静的房间”。" in page.locator("#result").inner_text()
    assert memory.profile(ns) == {"rail_class": "second_class", "red_eye": "avoid"}
    assert "喜欢安静的房间" not in {item.text for item in memory.items(ns)}


def test_a_note_gets_the_answer_chat_gives_in_a_browser(
    prefs_bot: PrefsBot, tmp_path: Path
) -> None:
    """A seat row the rules alone took for money is kept; text chat refuses as instructions
    is refused beside the note, with chat's reason, and nothing typed is lost."""
    require_chromium()
    ns, memory = prefs_bot.namespace(), prefs_bot.memory
    with chromium(tmp_path / "profile") as browser:
        page = browser.new_page()
        _open_from_another_site(page, prefs_bot.link(lang="en"))
        seat = page.get_by_role("group", name="Seat", exact=True)
        seat.get_by_role("radio", name="Aisle", exact=True).check()
        note = page.get_by_label("Anything else?")
        note.fill(HANDS_OVER)
        page.get_by_role("button", name="Save", exact=True).click()

        page.locator("#error-note").wait_for()
        assert page.locator("#error-note").inner_text() == t("prefs_privacy_instructions", "en")
        assert page.locator("#result").get_attribute("role") == "alert"
        note = page.get_by_label("Anything else?")
        assert note.input_value() == HANDS_OVER  # nothing typed is lost
        assert note.get_attribute("aria-invalid") == "true"
        seat = page.get_by_role("group", name="Seat", exact=True)
        assert seat.get_by_role("radio", name="Aisle", exact=True).is_checked()
        assert memory.items(ns) == []

        note.fill(ROW_EN)
        page.get_by_role("button", name="Save", exact=True).click()
        result = page.locator("#result", has_text="Saved your travel preferences.")
        result.wait_for()
        assert f"Also noted: “{ROW_EN}”" in result.inner_text()
    assert memory.profile(ns) == {"seat": "aisle"}
    assert ROW_EN in {item.text for item in memory.items(ns)}
