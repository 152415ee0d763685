"""One answer written into a CardKit card as it comes (Feishu's typewriter cards).

`CardStream.open` creates a card entity in streaming mode and replies with it in the
message's thread (or as the chat allows, `bot.feishu.reply_modes`); `update(text)` shows
the whole text so far in its markdown element; `close(text)` shows the final text and
ends streaming mode. Three rules hold whatever fails:

- Sequence numbers strictly increase per card: each update takes the next one, and a
  number is never reused for different content (an update that failed is skipped; the
  next carries the whole text anyway).
- A retry never shows anything twice: every update sends the whole text so far, never a
  piece to append, with a uuid of its own, so an update Feishu applied but whose answer
  was lost is applied once however often it is retried; the reply that shows the card
  has a uuid too, so a retried reply is the same message.
- The final text is shown, or `close` says it is not: its update is acknowledged, or
  the whole card is replaced by one showing the final text (CardKit's full update);
  when both fail `close` returns False and the caller sends the answer again.

Feishu ends a card's streaming mode ten minutes after it was turned on (`window`): a
turn that runs longer turns it on again before the window closes, and again whenever
Feishu answers that streaming timed out or is closed (200850, 300309), then retries.

Updates are throttled (`interval`): a model writing a token at a time costs a few calls
a second, and the final text is always shown.

The work (`show_work`): a card opened with a work panel (`open(work=...)`) shows the
turn's steps in it as they change, with the same sequence numbers; `close(text, work)`
ends with the steps and the preferences used, and a card opened without the panel is
replaced by one that has it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from bot.feishu.api import FeishuAPI, FeishuError
from bot.feishu.cardkit import STREAMING_OFF
from bot.feishu.cards import (
    ANSWER_ELEMENT,
    WORK_ELEMENT,
    Work,
    answer_card,
    card_reference,
    streaming_card,
)
from bot.feishu.markdown import CARD_TEXT_LIMIT, to_card_markdown

log = logging.getLogger(__name__)

END_STREAMING: dict[str, Any] = {"config": {"streaming_mode": False}}
RENEW_STREAMING: dict[str, Any] = {"config": {"streaming_mode": True}}
STREAMING_WINDOW = 600.0  # Feishu closes streaming mode ten minutes after it was turned on
RENEW_AT = 0.9  # of the window: turn streaming on again this far into it


class CardStream:
    """A streaming card in reply to one message (see the module docstring)."""

    def __init__(
        self,
        api: FeishuAPI,
        *,
        reply_to: str,
        uuid: str,
        placeholder: str,
        chat_id: str | None = None,
        interval: float = 0.3,
        window: float = STREAMING_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.api = api
        self.reply_to = reply_to
        self.chat_id = chat_id
        self.window = window
        self.uuid = uuid
        self.placeholder = placeholder
        self.interval = interval
        self.card_id: str | None = None
        self.message_id: str | None = None
        self.failed = False
        self.closed = False
        self._clock = clock
        self._sequence = 0
        self._shown = ""
        self._last = 0.0
        self._since = 0.0  # when streaming mode was last turned on
        self._lock = threading.Lock()
        self.has_work = False  # the card has the work panel
        self._work = ""  # the work panel's text shown

    @property
    def opened(self) -> bool:
        return self.card_id is not None and self.message_id is not None

    @property
    def sequence(self) -> int:
        """The last sequence number used."""
        return self._sequence

    @property
    def shown(self) -> str:
        """The text the card shows ("" while it shows only the placeholder)."""
        return self._shown

    def open(self, text: str = "", work: Work | None = None) -> bool:
        """Create the card (with the work panel when `work` is given) and reply with it;
        False (and `failed`) when Feishu refused."""
        with self._lock:
            if self.opened or self.failed:
                return self.opened
            try:
                self.card_id = self.api.create_card(
                    streaming_card(text[:CARD_TEXT_LIMIT], placeholder=self.placeholder, work=work)
                )
                self.has_work = work is not None
                self._work = work[1] if work is not None else ""
                self._since = self._clock()
                self.message_id = self.api.reply(
                    self.reply_to,
                    msg_type="interactive",
                    content=card_reference(self.card_id),
                    chat_id=self.chat_id,
                    uuid=self.uuid,
                )
            except FeishuError as exc:
                log.warning("could not open a streaming card (%s)", exc.code)
                self.failed = True
                return False
            self._shown = text
            self._last = self._clock()
            return True

    def update(self, text: str, *, force: bool = False) -> bool:
        """Show `text` (the whole answer so far), unless one was shown a moment ago.
        True when the card now shows it."""
        with self._lock:
            if not self.opened or self.closed:
                return False
            if text == self._shown:
                return True
            if not force and self._clock() - self._last < self.interval:
                return False
            return self._show(text, patience=30.0 if force else 2.0)

    def show_work(self, content: str) -> bool:
        """Show `content` (card Markdown) in the work panel; False without one."""
        with self._lock:
            if not self.opened or self.closed or not self.has_work:
                return False
            if content == self._work:
                return True
            self._sequence += 1
            try:
                self.api.set_card_text(
                    str(self.card_id),
                    WORK_ELEMENT,
                    content,
                    sequence=self._sequence,
                    uuid=f"{self.uuid}-{self._sequence}",
                    patience=2.0,
                )
            except FeishuError as exc:
                log.info("could not show the work in a streaming card (%s)", exc.code)
                return False
            self._work = content
            return True

    def close(self, text: str, work: Work | None = None) -> bool:
        """Show the final `text` (and `work`) and end streaming; True when the card shows
        the text (its update acknowledged, or the card replaced by one that shows it)."""
        if work is not None and self.has_work:
            self.show_work(work[1])
        shown = self.update(text, force=True)
        with self._lock:
            if not self.opened or self.closed:
                return shown
            self.closed = True
            if not shown or (work is not None and not self.has_work):
                # the final update failed, or the card has no work panel: a card showing
                # both takes its place
                return self._replace(text, work) or shown
            self._settings(END_STREAMING)  # failing, the card only keeps its cursor
            return True

    def _show(self, text: str, *, patience: float) -> bool:
        if self._clock() - self._since > self.window * RENEW_AT:
            self._renew()  # before Feishu closes streaming mode by itself
        content = to_card_markdown(text[:CARD_TEXT_LIMIT]) or self.placeholder
        for attempt in (1, 2):
            self._sequence += 1  # taken even if the call fails: never reused
            try:
                self.api.set_card_text(
                    str(self.card_id),
                    ANSWER_ELEMENT,
                    content,
                    sequence=self._sequence,
                    uuid=f"{self.uuid}-{self._sequence}",
                    patience=patience,
                )
            except FeishuError as exc:
                if exc.code in STREAMING_OFF and attempt == 1 and self._renew():
                    continue  # Feishu closed streaming (ten minutes): on again, once more
                log.info("a streaming card update failed (%s); the next one catches up", exc.code)
                return False
            self._shown = text
            self._last = self._clock()
            return True
        return False  # pragma: no cover (the loop always returns)

    def _renew(self) -> bool:
        """Turn streaming mode on again: the card streams another ten minutes."""
        if not self._settings(RENEW_STREAMING):
            return False
        self._since = self._clock()
        return True

    def _settings(self, settings: dict[str, Any]) -> bool:
        """Change the card's settings (streaming mode off, or on again)."""
        self._sequence += 1
        try:
            self.api.card_settings(
                str(self.card_id),
                settings,
                sequence=self._sequence,
                uuid=f"{self.uuid}-{self._sequence}",
            )
        except FeishuError as exc:
            log.info("could not change a card's settings %s (%s)", settings, exc.code)
            return False
        return True

    def _replace(self, text: str, work: Work | None = None) -> bool:
        """The whole card replaced by one that shows `text` (streaming ended with it)."""
        self._sequence += 1
        try:
            self.api.replace_card(
                str(self.card_id),
                answer_card(text[:CARD_TEXT_LIMIT], work),
                sequence=self._sequence,
                uuid=f"{self.uuid}-{self._sequence}",
            )
        except FeishuError as exc:
            log.warning("could not show the final text in a streaming card (%s)", exc.code)
            return False
        self._shown = text
        return True


__all__ = ["END_STREAMING", "RENEW_STREAMING", "STREAMING_WINDOW", "CardStream"]
