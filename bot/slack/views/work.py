"""The work in Slack: the steps and the preferences used, as stream chunks or a line.

In a streamed answer, the work is a plan (`PlanUpdateChunk`, titled "How I worked on
it") of tasks (`TaskUpdateChunk`): one per step, updated by its id as it starts and
ends, and a last one listing the preferences the answer used, each with when it was
said. An answer posted at once carries the work as one context line under it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slack_sdk.models.messages.chunk import Chunk, PlanUpdateChunk, TaskUpdateChunk

from bot.conversation.work import Step, Work
from bot.messages import t
from bot.slack.markdown import to_mrkdwn

CONTEXT_LIMIT = 2000  # characters of a context block's text
USED_TASK = "prefs_used"  # the id of the task that lists the preferences the answer used


def plan(lang: str) -> PlanUpdateChunk:
    """The title above the tasks."""
    return PlanUpdateChunk(title=t("work_title", lang))


def task(step: Step) -> TaskUpdateChunk:
    """A step as a task, by its id."""
    return TaskUpdateChunk(id=step.id, title=step.title, status=step.status)


def last_tasks(
    pending: Sequence[Chunk], work: Work | None, *, planned: bool, lang: str
) -> list[Chunk]:
    """What ends the stream: the task updates not sent yet and the preferences used
    (under the plan's title when the stream has none yet)."""
    chunks = list(pending)
    if work is not None and work.used:
        used = "\n".join(work.used_lines())
        chunks.append(
            TaskUpdateChunk(id=USED_TASK, title=work.used_title, status="complete", output=used)
        )
    if chunks and not planned:
        chunks.insert(0, plan(lang))
    return chunks


def context_line(work: Work | None) -> list[dict[str, Any]]:
    """The work as one context line under an answer posted at once ([] without any)."""
    if work is None or not (work.steps or work.used):
        return []
    line = work.line()
    if len(line) > CONTEXT_LIMIT:
        line = line[: CONTEXT_LIMIT - 1] + "…"
    return [{"type": "context", "elements": [{"type": "mrkdwn", "text": to_mrkdwn(line)}]}]


__all__ = ["CONTEXT_LIMIT", "USED_TASK", "context_line", "last_tasks", "plan", "task"]
