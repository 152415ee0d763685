"""Block Kit for the App Home tab, built from typed `slack_sdk.models`.

The tab shows what is remembered about a person: the summary, each current fact with its
source, date, the scope it is limited to (if any) and a "Forget" button, paged
`HOME_PAGE_SIZE` facts at a time. Its ids and Slack's limits are `bot.slack.views.blocks`,
shared with the `/travel-prefs` modal.
"""

from __future__ import annotations

from collections.abc import Sequence

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    ConfirmObject,
    ContextBlock,
    DividerBlock,
    HeaderBlock,
    MarkdownTextObject,
    SectionBlock,
)
from slack_sdk.models.views import View

from bot.messages import t
from bot.prefs.remembered import source_label
from bot.slack.views.blocks import (
    EDIT_ACTION_ID,
    FORGET_ALL_ACTION_ID,
    FORGET_ITEM_ACTION_ID,
    HOME_CALLBACK_ID,
    HOME_NEWER_ACTION_ID,
    HOME_OLDER_ACTION_ID,
    HOME_PAGE_SIZE,
    MAX_BLOCKS,
    MAX_BUTTON_CHARS,
    MAX_CONFIRM_CHARS,
    MAX_TEXT_CHARS,
    OPEN_IN_BROWSER_ACTION_ID,
    clip,
    clipped,
    escape,
    section,
)
from memory.lang import Lang
from memory.scope import scope_label
from memory.types import MemoryItem


def home_view(
    *,
    lang: Lang,
    summary: str,
    items: Sequence[MemoryItem],
    page: int = 0,
    unavailable: bool = False,
    browser_url: str | None = None,
    trips: Sequence[str] = (),
) -> View:
    """What is remembered: the summary, each current fact with source, date and "Forget".

    With `browser_url` (a fresh link to the preferences page, when links are configured)
    an "Open in browser" button opens the same form in the person's browser. `trips`: the
    person's coming trips in lines, with their approval state (`bot.flows.trips`).
    """
    blocks: list[Block] = [HeaderBlock(text=clipped("home_title", lang, 150))]
    if unavailable:
        blocks.append(section(t("home_unavailable", lang)))
    elif summary:
        blocks.append(section(t("home_summary_heading", lang) + "\n" + escape(summary)))
    else:
        blocks.append(section(t("home_empty", lang)))
    buttons = [
        ButtonElement(
            text=clipped("home_edit", lang, MAX_BUTTON_CHARS),
            action_id=EDIT_ACTION_ID,
            value="edit",
            style="primary",
        )
    ]
    if browser_url:
        buttons.append(
            ButtonElement(
                text=clipped("home_open_browser", lang, MAX_BUTTON_CHARS),
                action_id=OPEN_IN_BROWSER_ACTION_ID,
                url=browser_url,
                value="browser",
            )
        )
    if items:
        buttons.append(
            ButtonElement(
                text=clipped("home_forget_all", lang, MAX_BUTTON_CHARS),
                action_id=FORGET_ALL_ACTION_ID,
                value="all",
                style="danger",
                confirm=_confirm(lang, t("home_forget_all_confirm", lang)),
            )
        )
    blocks.append(ActionsBlock(elements=buttons))
    if items and not unavailable:
        blocks += [DividerBlock(), *_home_facts(items, lang, page)]
    if trips:
        listed = "\n".join(f"• {escape(line)}" for line in trips)
        blocks += [DividerBlock(), section(t("trips_heading", lang) + "\n" + listed)]
    blocks += [
        DividerBlock(),
        ContextBlock(elements=[MarkdownTextObject(text=t("home_never_stores", lang))]),
    ]
    return View(type="home", callback_id=HOME_CALLBACK_ID, blocks=blocks[:MAX_BLOCKS])


def _home_facts(items: Sequence[MemoryItem], lang: Lang, page: int) -> list[Block]:
    pages = max(1, -(-len(items) // HOME_PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    start = page * HOME_PAGE_SIZE
    shown = items[start : start + HOME_PAGE_SIZE]
    blocks: list[Block] = [section(t("home_facts_heading", lang, count=len(items)))]
    for item in shown:
        blocks.append(
            SectionBlock(
                block_id=f"travel_prefs.fact.{item.id}"[:255],
                text=MarkdownTextObject(text=_fact_text(item, lang)),
                accessory=ButtonElement(
                    text=clipped("home_forget", lang, MAX_BUTTON_CHARS),
                    action_id=FORGET_ITEM_ACTION_ID,
                    value=item.id,
                    confirm=_confirm(lang, escape(item.text)),
                ),
            )
        )
    rest = len(items) - start - len(shown)
    if rest > 0:
        more = clipped("prefs_more", lang, MAX_TEXT_CHARS, count=rest)
        blocks.append(ContextBlock(elements=[MarkdownTextObject(text=more)]))
    paging = []
    if page > 0:
        paging.append(_page_button(t("home_newer", lang), HOME_NEWER_ACTION_ID, page - 1))
    if page < pages - 1:
        paging.append(_page_button(t("home_older", lang), HOME_OLDER_ACTION_ID, page + 1))
    if paging:
        blocks.append(ActionsBlock(block_id="travel_prefs.paging", elements=paging))
    return blocks


def _page_button(text: str, action_id: str, page: int) -> ButtonElement:
    return ButtonElement(
        text=clip(text, MAX_BUTTON_CHARS),
        action_id=action_id,
        value=str(page),
    )


def _fact_text(item: MemoryItem, lang: Lang) -> str:
    stamp = int(item.created_at.timestamp())
    date = f"<!date^{stamp}^{{date_short}}|{item.created_at.date().isoformat()}>"
    meta = f"_{escape(source_label(item.source, lang))}_ · {date}"
    if item.scope:
        meta += " · " + escape(t("home_scope", lang, scope=scope_label(item.scope, lang)))
    return clip(escape(item.text), MAX_TEXT_CHARS - len(meta) - 1) + "\n" + meta


def _confirm(lang: Lang, text: str) -> ConfirmObject:
    return ConfirmObject(
        title=clipped("home_forget_title", lang, 100),
        text=MarkdownTextObject(text=clip(text, MAX_CONFIRM_CHARS)),
        confirm=clipped("home_forget", lang, 30),
        deny=clipped("prefs_cancel", lang, 30),
        style="danger",
    )


__all__ = ["home_view", "source_label"]
