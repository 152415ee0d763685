"""Block Kit for feedback: the thumbs under every answer, and the question after a thumbs-down.

Each answer ends with Slack's feedback buttons (`feedback_block`, a `context_actions`
block). Their value names the verdict, the person's language and the turn (its id, never
its text), so a click is counted and logged without reading any message. A thumbs-down
is answered with an ephemeral question (`reasons_message`): a few reasons as buttons
(`FEEDBACK_REASON_ACTION`), which are counted the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.messages import t

FEEDBACK_ACTION = "answer_feedback"
FEEDBACK_REASON_ACTION = "answer_feedback_reason"
FEEDBACK_BLOCK = "answer_feedback"
VERDICTS = ("good", "bad")
REASONS = ("preferences", "options", "misunderstood", "other")


@dataclass(frozen=True, slots=True)
class Feedback:
    """What a feedback button carries: a verdict or a reason, the language, the turn."""

    choice: str  # "good" / "bad", or a reason
    lang: str
    turn_id: str


def _value(choice: str, lang: str, turn_id: str) -> str:
    return f"{choice}|{lang}|{turn_id}"


def read_feedback(value: object, allowed: tuple[str, ...]) -> Feedback | None:
    """The feedback a button's value carries, or None when it is not one of `allowed`."""
    if not isinstance(value, str):
        return None
    parts = value.split("|")
    if len(parts) != 3 or parts[0] not in allowed or parts[1] not in ("en", "zh"):
        return None
    if not parts[2].isalnum() or len(parts[2]) > 64:
        return None
    return Feedback(parts[0], parts[1], parts[2])


def feedback_block(turn_id: str, lang: str) -> dict[str, Any]:
    """The feedback buttons under an answer."""

    def button(verdict: str) -> dict[str, Any]:
        label = t(f"feedback_{verdict}", lang)
        return {
            "text": {"type": "plain_text", "text": "👍" if verdict == "good" else "👎"},
            "value": _value(verdict, lang, turn_id),
            "accessibility_label": label,
        }

    return {
        "type": "context_actions",
        "block_id": FEEDBACK_BLOCK,
        "elements": [
            {
                "type": "feedback_buttons",
                "action_id": FEEDBACK_ACTION,
                "positive_button": button("good"),
                "negative_button": button("bad"),
            }
        ],
    }


def reasons_message(turn_id: str, lang: str) -> tuple[str, list[dict[str, Any]]]:
    """(text, blocks) of the ephemeral question after a thumbs-down."""
    question = t("feedback_ask", lang)
    buttons = [
        {
            "type": "button",
            "action_id": f"{FEEDBACK_REASON_ACTION}_{reason}",
            "text": {"type": "plain_text", "text": t(f"feedback_reason_{reason}", lang)},
            "value": _value(reason, lang, turn_id),
        }
        for reason in REASONS
    ]
    blocks: list[dict[str, Any]] = [
        {"type": "section", "text": {"type": "mrkdwn", "text": question}},
        {"type": "actions", "block_id": "answer_feedback_reasons", "elements": buttons},
    ]
    return question, blocks


__all__ = [
    "FEEDBACK_ACTION",
    "FEEDBACK_BLOCK",
    "FEEDBACK_REASON_ACTION",
    "REASONS",
    "VERDICTS",
    "Feedback",
    "feedback_block",
    "read_feedback",
    "reasons_message",
]
