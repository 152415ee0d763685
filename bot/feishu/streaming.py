"""One answer written into a CardKit card as it comes (Feishu's typewriter cards).

`CardStream.open` creates a card entity in streaming mode and replies with it in the
message's thread; `update(text)` shows the whole text so far in its markdown element;
`close(text)` shows the final text and ends streaming mode. Two rules hold whatever
fails:

- Sequence numbers strictly increase per card: each update takes the next one, and a
  number is never reused for different content (an update that failed is skipped; the
  next carries the whole text anyway).
- A retry never shows anything twice: every update sends the whole text so far, never a
  piece to append, with a uuid of its own, so an update Feishu applied but whose answer
  was lost is applied once however often it is retried; the reply that shows the card
  has a uuid too, so a retried reply is the same message.

Updates are throttled (`interval`): a model writing a token at a time costs a few calls
a second, and the final text is always shown.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from bot.feishu.api import FeishuAPI, FeishuError
from bot.feishu.cards import ANSWER_ELEMENT, card_reference, streaming_card
from bot.feishu.markdown import CARD_TEXT_LIMIT, to_card_markdown

log = logging.getLogger(__name__)

END_STREAMING = {"config": {"streaming_mode": False}}


class CardStream:
    """A streaming card in reply to one message (see the module docstring)."""

    def __init__(
        self,
        api: FeishuAPI,
        *,
        reply_to: str,
        uuid: str,
        placeholder: str,
        interval: float = 0.3,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.api = api
        self.reply_to = reply_to
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
        self._lock = threading.Lock()

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

    def open(self, text: str = "") -> bool:
        """Create the card and reply with it; False (and `failed`) when Feishu refused."""
        with self._lock:
            if self.opened or self.failed:
                return self.opened
            try:
                self.card_id = self.api.create_card(
                    streaming_card(text[:CARD_TEXT_LIMIT], placeholder=self.placeholder)
                )
                self.message_id = self.api.reply(
                    self.reply_to,
                    msg_type="interactive",
                    content=card_reference(self.card_id),
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

    def close(self, text: str) -> bool:
        """Show the final `text` and end streaming; True when the card shows it."""
        shown = self.update(text, force=True)
        with self._lock:
            if not self.opened or self.closed:
                return shown
            self.closed = True
            self._sequence += 1
            try:
                self.api.card_settings(
                    str(self.card_id),
                    END_STREAMING,
                    sequence=self._sequence,
                    uuid=f"{self.uuid}-{self._sequence}",
                )
            except FeishuError as exc:  # the text is shown; the card keeps its cursor
                log.info("could not end a card's streaming mode (%s)", exc.code)
            return shown

    def _show(self, text: str, *, patience: float) -> bool:
        self._sequence += 1  # taken even if the call fails: never reused
        content = to_card_markdown(text[:CARD_TEXT_LIMIT]) or self.placeholder
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
            log.info("a streaming card update failed (%s); the next one catches up", exc.code)
            return False
        self._shown = text
        self._last = self._clock()
        return True


__all__ = ["END_STREAMING", "CardStream"]
