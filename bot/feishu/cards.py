"""Card JSON 2.0 pieces every Feishu card of the bot is made of.

Every message the bot sends is an interactive card in schema 2.0 (the version whose
markdown component reads headings, lists and code, and the only one CardKit streams):
`answer_card` for Markdown (the core's answers, refusals, notices), `streaming_card` for
an answer that arrives in pieces. Either may carry the work (`work_panel`): a collapsible
panel, folded, above the answer, with the turn's steps and the preferences it used.
Every card is shared (`update_multi`), so updating it shows everyone the new one.
Button values are JSON objects whose `a` names the action
(`bot.feishu.actions` reads them back).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.feishu.markdown import to_card_markdown

ANSWER_ELEMENT = "answer"  # the markdown element a streaming card writes into
WORK_ELEMENT = "work"  # the markdown element inside the work panel (steps, preferences used)
WORK_PANEL = "work_panel"


def card(
    elements: Sequence[Mapping[str, Any]],
    *,
    title: str | None = None,
    template: str = "blue",
    summary: str | None = None,
    streaming: bool = False,
) -> dict[str, Any]:
    """A card JSON 2.0 with `elements` in its body."""
    config: dict[str, Any] = {"update_multi": True}
    if streaming:
        config["streaming_mode"] = True
    if summary is not None:
        config["summary"] = {"content": summary[:100]}
    result: dict[str, Any] = {"schema": "2.0", "config": config, "body": {"elements": elements}}
    if title:
        result["header"] = {
            "title": {"tag": "plain_text", "content": title},
            "template": template,
        }
    return result


def markdown(content: str, *, element_id: str | None = None) -> dict[str, Any]:
    """A markdown element; `content` is card Markdown already (see `bot.feishu.markdown`)."""
    element: dict[str, Any] = {"tag": "markdown", "content": content}
    if element_id:
        element["element_id"] = element_id
    return element


def note(content: str) -> dict[str, Any]:
    """A small grey line (card Markdown)."""
    return {"tag": "markdown", "content": content, "text_size": "notation"}


def button(
    label: str,
    *,
    value: Mapping[str, Any] | None = None,
    url: str | None = None,
    kind: str = "default",
) -> dict[str, Any]:
    """A button that calls back with `value`, or opens `url`."""
    behavior: dict[str, Any] = (
        {"type": "open_url", "default_url": url}
        if url
        else {"type": "callback", "value": dict(value or {})}
    )
    return {
        "tag": "button",
        "text": {"tag": "plain_text", "content": label},
        "type": kind,
        "behaviors": [behavior],
    }


def buttons(*items: Mapping[str, Any]) -> dict[str, Any]:
    """Buttons side by side."""
    return {
        "tag": "column_set",
        "flex_mode": "flow",
        "columns": [{"tag": "column", "width": "auto", "elements": [dict(item)]} for item in items],
    }


Work = tuple[str, str]  # the work panel's title and its card Markdown


def answer_card(markdown_text: str, work: Work | None = None) -> dict[str, Any]:
    """The core's Markdown (an answer, a refusal, a notice) as a card, with the work above
    it when given."""
    content = to_card_markdown(markdown_text)
    answer = markdown(content, element_id=ANSWER_ELEMENT)
    elements = [work_panel(*work), answer] if work is not None else [answer]
    return card(elements, summary=_summary(content))


def streaming_card(
    markdown_text: str, *, placeholder: str, work: Work | None = None
) -> dict[str, Any]:
    """A CardKit card whose answer element streams (`ANSWER_ELEMENT`), and, with `work`,
    whose work panel's text does too (`WORK_ELEMENT`)."""
    content = to_card_markdown(markdown_text) or placeholder
    answer = markdown(content, element_id=ANSWER_ELEMENT)
    elements = [work_panel(*work), answer] if work is not None else [answer]
    return card(elements, summary=placeholder, streaming=True)


def work_panel(title: str, content: str) -> dict[str, Any]:
    """A folded collapsible panel titled `title` holding `content` (card Markdown)."""
    return {
        "tag": "collapsible_panel",
        "element_id": WORK_PANEL,
        "expanded": False,
        "header": {
            "title": {"tag": "plain_text", "content": title},
            "icon": {
                "tag": "standard_icon",
                "token": "down-small-ccm_outlined",
                "size": "16px 16px",
            },
            "icon_position": "right",
            "icon_expanded_angle": -180,
        },
        "border": {"color": "grey", "corner_radius": "5px"},
        "elements": [markdown(content, element_id=WORK_ELEMENT)],
    }


def card_reference(card_id: str) -> dict[str, Any]:
    """A message's content that shows a CardKit card entity."""
    return {"type": "card", "data": {"card_id": card_id}}


def _summary(content: str) -> str:
    """The chat list's preview of a card: its first line, without markup."""
    first = next((line for line in content.splitlines() if line.strip()), "")
    return first.replace("*", "").replace("#", "").strip()[:100]


__all__ = [
    "ANSWER_ELEMENT",
    "WORK_ELEMENT",
    "WORK_PANEL",
    "Work",
    "answer_card",
    "button",
    "buttons",
    "card",
    "card_reference",
    "markdown",
    "note",
    "streaming_card",
    "work_panel",
]
