"""A person's own view of, and control over, what is remembered about them.

- `show`: what is remembered (`PreferencesView`), with *Edit* when the web page is set
  up (the link provider) and *Forget all* when there is something to forget;
- `ask_forget`: "forget everything?" (`Confirmation`), whose *yes* and *no* carry the
  asker's namespace: only they may answer it;
- `forget`: the *yes*, decided once (its nonce is claimed, `bot.conversation.claims`: the
  same *yes* again is told it expired); everything is erased, every link to their
  preferences page and page session ends (`bot.prefs.revocations`), and they are told
  how much;
- `cancel`: the *no*; nothing changes.

A button carries its owner; a click by anyone else changes nothing and says so
(`{platform}_forget_refused_total`). The namespace is always the asker's own: nobody can
see or erase another person's memory here.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING

from bot.flows.actions import FORGET_PREFS, FORGET_PREFS_NO, FORGET_PREFS_YES, Action, Request
from bot.flows.views import Confirmation, Notice, Outcome, PreferencesView
from bot.prefs.links import LinkProvider, no_link
from bot.prefs.revocations import forget_everything
from memory.errors import MemoryEngineError

if TYPE_CHECKING:
    from bot.conversation.claims import Claims
    from bot.metrics import Metrics
    from bot.prefs.revocations import Revocations
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)

NOT_YOURS = "prefs_card_not_yours"  # the notice key; a channel may word it its own way
CONFIRM_TTL_SECONDS = 24 * 3600  # a used *yes* is remembered this long


class PreferenceFlows:
    """The preferences flows (see the module docstring); each call reads or writes
    memory, so channels run them on the task pool."""

    def __init__(
        self,
        *,
        memory: LongTermMemory,
        metrics: Metrics,
        claims: Claims,
        revocations: Revocations | None = None,
        link: LinkProvider = no_link,
    ) -> None:
        self.memory = memory
        self.metrics = metrics
        self.claims = claims
        self.revocations = revocations
        self.link = link

    def show(self, request: Request) -> Outcome:
        lang, namespace = request.lang, request.namespace
        try:
            count = len(self.memory.items(namespace))
            summary = self.memory.retrieve(namespace) if count else ""
        except MemoryEngineError:
            return _unavailable(request)
        try:
            url = self.link(namespace, lang)
        except Exception:  # a link we cannot make is a view without *Edit*
            log.warning("could not make the preferences page link", exc_info=True)
            url = None
        forget = Action(FORGET_PREFS, {"owner": namespace}) if count else None
        view = PreferencesView(lang=lang, count=count, summary=summary, edit_url=url, forget=forget)
        return Outcome(view)

    def ask_forget(self, request: Request) -> Outcome:
        refused = self._not_owner(request)
        if refused is not None:
            return refused
        lang, namespace = request.lang, request.namespace
        try:
            count = len(self.memory.items(namespace))
        except MemoryEngineError:
            return _unavailable(request)
        if not count:
            nothing = Notice("prefs_forget_nothing", lang)
            return Outcome(nothing, text=nothing.text(), replace=True)
        question = Notice("prefs_forget_ask", lang, {"count": count})
        owner = {"owner": namespace}
        view = Confirmation(
            question=question,
            yes=Action(FORGET_PREFS_YES, {**owner, "once": secrets.token_hex(8)}),
            no=Action(FORGET_PREFS_NO, owner),
            yes_label="prefs_forget_yes",
            no_label="prefs_cancel",
        )
        return Outcome(view, text=question.text(), tone="warning", replace=True)

    def forget(self, request: Request) -> Outcome:
        refused = self._not_owner(request)
        if refused is not None:
            return refused
        lang = request.lang
        once = request.action.data.get("once")
        if once and not self.claims.claim(
            f"bot:seen:confirm:{request.platform.key(str(once))}", ttl_seconds=CONFIRM_TTL_SECONDS
        ):
            expired = Notice("prefs_forget_expired", lang)
            return Outcome(expired, text=expired.text(), tone="warning", replace=True)
        try:
            count = forget_everything(self.memory, self.revocations, request.namespace)
        except MemoryEngineError:
            failed = Notice("memory_forget_failed", lang)
            return Outcome(failed, text=failed.text(), tone="error", replace=True)
        self.metrics.inc("prefs_forgotten_total", count, scope="all")
        done = Notice("prefs_forgot_all", lang, {"count": count} if count else {})
        if not count:
            done = Notice("prefs_forget_nothing", lang)
        return Outcome(done, text=done.text(), tone="success", replace=True)

    def cancel(self, request: Request) -> Outcome:
        refused = self._not_owner(request)
        if refused is not None:
            return refused
        cancelled = Notice("prefs_forget_cancelled", request.lang)
        return Outcome(cancelled, text=cancelled.text(), replace=True)

    def _not_owner(self, request: Request) -> Outcome | None:
        """A refusal when the button belongs to someone else; None when it is theirs."""
        owner = request.action.data.get("owner")
        if owner is None and request.action.name != FORGET_PREFS_YES:
            return None  # a command: it is always the writer's own
        if owner in (request.namespace, request.user):  # a button made before 2.3: the id
            return None
        self.metrics.inc(f"{request.platform.name}_forget_refused_total")
        refused = Notice(NOT_YOURS, request.lang)
        return Outcome(refused, text=refused.text(), tone="error", private=True)


def _unavailable(request: Request) -> Outcome:
    notice = Notice("home_unavailable", request.lang)
    return Outcome(notice, text=notice.text(), tone="error", private=False)


__all__ = ["NOT_YOURS", "PreferenceFlows"]
