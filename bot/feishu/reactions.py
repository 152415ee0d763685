"""Reactions on a message: part of `FeishuAPI` (`bot.feishu.api`), as CardKit's calls are.

Adding one (`im/v1/messages/:message_id/reactions`, POST) takes no uuid: the body is only
the emoji type, so Feishu cannot tell a retry from a second request. Its documented
answers name "repeated request is processing" (231015), and say nothing of what a second
add of the same emoji by the same operator does once the first is done. So an add is
never sent again after it may have reached Feishu (a read error or timeout, a reset after
the request): a blind retry could leave two reactions of ours, or one whose id we never
learnt, and the progress reaction would stay on the person's message after the answer
came (the sink removes only the id it was given). Instead the message's reactions of that
emoji are read (`im/v1/messages/:message_id/reactions`, GET, `reaction_type`): ours (the
operator is this app) is the one the lost answer would have named, and a second one of
ours, should Feishu have made two, is taken away at once. Only when none is ours did the
add never land, and it is sent once more.

Taking one away (DELETE `…/reactions/:reaction_id`) names the reaction: doing it twice
removes it once, and the second answer (it is gone) changes nothing the person sees, so
it is retried as any call is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import lark_oapi as lark
from lark_oapi.api.im.v1 import (
    CreateMessageReactionRequest,
    CreateMessageReactionRequestBody,
    DeleteMessageReactionRequest,
    Emoji,
    ListMessageReactionRequest,
)

from bot.feishu.errors import FeishuUnavailable

log = logging.getLogger(__name__)


class ReactionCalls:
    """Reactions; `FeishuAPI` provides `client`, `call` and `app_id`."""

    client: lark.Client
    call: Callable[..., Any]
    app_id: str

    def react(self, message_id: str, emoji: str, *, patience: float = 2.0) -> str:
        """Add a reaction; its id (for taking it away). See the module docstring for what
        happens when the answer is lost."""
        try:
            return self._add(message_id, emoji, patience)
        except FeishuUnavailable as exc:
            if not exc.maybe_sent:
                raise
        ours = self.our_reactions(message_id, emoji)
        for extra in ours[1:]:  # never expected; a second one would outlive the answer
            self.unreact(message_id, extra)
        if ours:
            return ours[0]
        log.info("a lost reaction never reached Feishu; adding it again")
        return self._add(message_id, emoji, patience)

    def _add(self, message_id: str, emoji: str, patience: float) -> str:
        body = (
            CreateMessageReactionRequestBody.builder()
            .reaction_type(Emoji.builder().emoji_type(emoji).build())
            .build()
        )
        request = (
            CreateMessageReactionRequest.builder().message_id(message_id).request_body(body).build()
        )
        data = self.call(
            "react",
            lambda: self.client.im.v1.message_reaction.create(request),
            patience=patience,
            resend=False,  # only a request that never left: see the module docstring
        )
        return str(getattr(data, "reaction_id", "") or "")

    def our_reactions(self, message_id: str, emoji: str) -> list[str]:
        """The ids of this app's reactions of `emoji` on the message, oldest first."""
        request = (
            ListMessageReactionRequest.builder()
            .message_id(message_id)
            .reaction_type(emoji)
            .page_size(50)
            .build()
        )
        data = self.call(
            "reactions", lambda: self.client.im.v1.message_reaction.list(request), patience=2.0
        )
        found = []
        for item in getattr(data, "items", None) or []:
            operator = getattr(item, "operator", None)
            if getattr(operator, "operator_type", "") == "app" and (
                getattr(operator, "operator_id", "") in ("", self.app_id)
            ):
                found.append(str(getattr(item, "reaction_id", "") or ""))
        return [f for f in found if f]

    def unreact(self, message_id: str, reaction_id: str) -> None:
        request = (
            DeleteMessageReactionRequest.builder()
            .message_id(message_id)
            .reaction_id(reaction_id)
            .build()
        )
        self.call("unreact", lambda: self.client.im.v1.message_reaction.delete(request))


__all__ = ["ReactionCalls"]
