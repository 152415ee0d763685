"""What a turn of the conversation needs of the agent and of the platform a message came
from (`bot.conversation.turn`): small protocols, so each side can be any implementation
(the real agent, a test's scripted one; each channel)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from bot.agent.tools import ToolContext
    from bot.conversation.incoming import IncomingMessage
    from bot.conversation.threads import Turn
    from bot.planning.admins import Admins
    from bot.planning.plan import ToolCallLike


class AgentReplyLike(Protocol):
    @property
    def text(self) -> str: ...

    @property
    def tool_calls(self) -> Sequence[ToolCallLike]: ...


class AgentLike(Protocol):
    """What the conversation needs of the agent (`bot.agent.loop.Agent`).

    `on_text` hears the answer as it is written; an agent that cannot stream may ignore
    it (the whole text is then appended once the turn is over).
    """

    def run(
        self,
        ctx: ToolContext,
        user_message: str,
        history: Sequence[Mapping[str, str]] = (),
        *,
        on_text: Callable[[str], None] | None = None,
    ) -> AgentReplyLike: ...


class Channel(Protocol):
    """What the conversation asks of the platform a message came from, during its turn."""

    @property
    def admins(self) -> Admins:
        """The platform's travel admins (for the writer's workspace)."""
        ...

    def timezone(self, msg: IncomingMessage) -> str:
        """The writer's time zone (IANA name; "UTC" when unknown)."""
        ...

    def earlier_turns(self, msg: IncomingMessage, *, max_turns: int, max_chars: int) -> list[Turn]:
        """The thread's messages before `msg`, oldest first ([] when unavailable)."""
        ...


@runtime_checkable
class ViewingChannel(Protocol):
    """A channel that can tell where the writer is looking (optional for channels)."""

    def viewing(self, msg: IncomingMessage) -> str | None:
        """The conversation open beside the chat, as the model may name it, or None."""
        ...


__all__ = ["AgentLike", "AgentReplyLike", "Channel", "ViewingChannel"]
