"""The preferences card in Feishu: what is remembered, *Edit* and *Forget all*.

`/travel-prefs` (or 偏好设置 / 我的偏好, or the bot's menu) answers with `prefs_card`:
the summary of what is remembered (escaped: a remembered fact is shown as written,
never read as a mention, a link or a tag), what is never stored, and the buttons:

- *Edit* opens the web preferences page: its link comes from the link provider the
  channel was built with (namespace and language → URL, or None: then no button);
- *Forget all* asks first (`forget_prompt`); only the person the card belongs to may
  answer (every button carries its owner's open_id, checked by `bot.feishu.actions`).
"""

from __future__ import annotations

from typing import Any

from bot.feishu.cards import button, buttons, card, markdown, note
from bot.feishu.markdown import to_card_markdown
from bot.messages import t

FORGET = "prefs.forget"  # asks first
FORGET_YES = "prefs.forget.yes"
FORGET_NO = "prefs.forget.no"


def prefs_card(
    *, lang: str, text: str, owner: str, count: int, edit_url: str | None
) -> dict[str, Any]:
    """The card: `text` is the summary, already escaped (`bot.prefs.remembered.show`)."""
    elements: list[dict[str, Any]] = [
        markdown(to_card_markdown(text)),
        note(t("prefs_never_stores", lang)),
    ]
    actions = []
    if edit_url:
        actions.append(button(t("home_edit", lang), url=edit_url, kind="primary"))
    if count:
        value = {"a": FORGET, "owner": owner, "l": lang}
        actions.append(button(t("home_forget_all", lang), value=value, kind="danger"))
    if actions:
        elements.append(buttons(*actions))
    return card(elements, title=t("home_title", lang), summary=t("home_title", lang))


def forget_prompt(*, lang: str, owner: str, count: int) -> dict[str, Any]:
    """ "Forget everything?" with yes and cancel, both only for `owner`."""
    yes = {"a": FORGET_YES, "owner": owner, "l": lang}
    no = {"a": FORGET_NO, "owner": owner, "l": lang}
    elements = [
        markdown(to_card_markdown(t("prefs_forget_ask", lang, count=count))),
        buttons(
            button(t("prefs_forget_yes", lang), value=yes, kind="danger"),
            button(t("prefs_cancel", lang), value=no),
        ),
    ]
    return card(elements, title=t("home_title", lang), template="red")


def notice_card(text: str, *, lang: str) -> dict[str, Any]:
    """The card once answered: what happened, no buttons."""
    return card([markdown(to_card_markdown(text))], title=t("home_title", lang))


__all__ = ["FORGET", "FORGET_NO", "FORGET_YES", "forget_prompt", "notice_card", "prefs_card"]
