"""Card JSON 2.0 pieces every Feishu card of the bot is made of.

Every message the bot sends is an interactive card in schema 2.0 (the version whose
markdown component reads headings, lists and code, and the only one CardKit streams):
`answer_card` for Markdown (the core's answers, refusals, notices), `streaming_card` for
an answer that arrives in pieces. Every card is shared (`update_multi`), so updating it
shows everyone the new one. Button values are JSON objects whose `a` names the action
(`bot.feishu.actions` reads them back).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.feishu.markdown import to_card_markdown

ANSWER_ELEMENT = "answer"  # the markdown element a streaming card writes into


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


def answer_card(markdown_text: str) -> dict[str, Any]:
    """The core's Markdown (an answer, a refusal, a notice) as a card."""
    content = to_card_markdown(markdown_text)
    return card([markdown(content, element_id=ANSWER_ELEMENT)], summary=_summary(content))


def streaming_card(markdown_text: str, *, placeholder: str) -> dict[str, Any]:
    """A CardKit card whose answer element streams (`ANSWER_ELEMENT`)."""
    content = to_card_markdown(markdown_text) or placeholder
    return card([markdown(content, element_id=ANSWER_ELEMENT)], summary=placeholder, streaming=True)


def card_reference(card_id: str) -> dict[str, Any]:
    """A message's content that shows a CardKit card entity."""
    return {"type": "card", "data": {"card_id": card_id}}


def _summary(content: str) -> str:
    """The chat list's preview of a card: its first line, without markup."""
    first = next((line for line in content.splitlines() if line.strip()), "")
    return first.replace("*", "").replace("#", "").strip()[:100]


__all__ = [
    "ANSWER_ELEMENT",
    "answer_card",
    "button",
    "buttons",
    "card",
    "card_reference",
    "markdown",
    "note",
    "streaming_card",
]
