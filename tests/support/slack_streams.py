"""Slack's chat streaming, as the fake Slack Web API plays it (`tests.support.slack_api`).

`StreamingMethods` is mixed into `FakeSlackAPI`: `chat.startStream`, `chat.appendStream`
and `chat.stopStream` with the errors Slack answers (see the fake's docstring), the
person pressing Stop, streams that expire, and `shown`/`wait_shown`: what a person sees
in a thread from the bot. It uses the fake's lock, messages and ids.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import Any

STREAM_TEXT_LIMIT = 12_000  # characters of markdown_text in one streaming call
TASK_STATUSES = frozenset({"pending", "in_progress", "complete", "error"})
SESSION_STATUSES = frozenset({"processing", "active", "suspended", "closed"})


class StreamingMethods:
    """Chat streaming for `FakeSlackAPI` (which provides the attributes below)."""

    _lock: threading.Condition
    _messages: dict[str, list[dict[str, Any]]]
    _streams: dict[str, str]  # stream ts -> "in_progress" | "completed" | "stopped"
    _stream_started: dict[str, float]
    _stream_ttl: float | None
    _made: set[str]
    _calls: list[Any]
    _status: dict[tuple[str, str], str]
    bot_user_id: str
    bot_id: str
    team_id: str

    def _ts(self) -> str:
        raise NotImplementedError

    def posted(self, channel: str, thread_ts: str | None = None) -> list[dict[str, Any]]:
        raise NotImplementedError

    def shown(self, channel: str, thread_ts: str) -> list[dict[str, Any]]:
        """What the bot showed in a thread through the API (posted messages and finished
        streams; not messages seeded with `add_message`), oldest first."""
        with self._lock:
            made = set(self._made)
        return [
            m
            for m in self.posted(channel, thread_ts)
            if m["ts"] in made and m.get("streaming") in (None, "completed")
        ]

    def wait_shown(
        self, channel: str, thread_ts: str, count: int = 1, timeout: float = 5.0
    ) -> list[dict[str, Any]]:
        """Block until the bot shows at least `count` messages in the thread; returns them."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                found = self.shown(channel, thread_ts)
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [c.method for c in self._calls]
                    raise AssertionError(
                        f"expected {count} message(s) shown, got {len(found)}; calls: {seen}"
                    )
                self._lock.wait(min(left, 0.1))

    def stop_stream_by_user(self, ts: str) -> None:
        """The person pressed Stop on a streaming message: later calls on it are refused."""
        with self._lock:
            if self._streams.get(ts) == "in_progress":
                self._streams[ts] = "stopped"
                self._set_stream(ts, streaming="completed")

    def expire_streams(self, seconds: float | None) -> None:
        """Streams older than `seconds` end by themselves (None: never)."""
        with self._lock:
            self._stream_ttl = seconds

    def _set_stream(self, ts: str, **values: Any) -> dict[str, Any] | None:
        """Update the stream message `ts` (call with the lock held); None when unknown."""
        for messages in self._messages.values():
            for message in messages:
                if message["ts"] == ts:
                    message.update(values)
                    self._lock.notify_all()
                    return message
        return None

    def _m_chat_startStream(self, args: dict[str, Any]) -> dict[str, Any]:
        channel, thread_ts = str(args.get("channel") or ""), str(args.get("thread_ts") or "")
        if not channel:
            return {"ok": False, "error": "channel_not_found"}
        if not thread_ts:
            return {"ok": False, "error": "invalid_arguments"}
        if not _has_content(args) or not _chunks_ok(args):  # one of them is required
            return {"ok": False, "error": "invalid_arguments"}
        if not channel.startswith("D"):
            for needed in ("recipient_team_id", "recipient_user_id"):
                if not args.get(needed):
                    return {"ok": False, "error": f"missing_{needed}"}
        text = _stream_text(args)
        if len(text) > STREAM_TEXT_LIMIT:
            return {"ok": False, "error": "msg_too_long"}
        message: dict[str, Any] = {
            "type": "message",
            "text": text,
            "user": self.bot_user_id,
            "bot_id": self.bot_id,
            "ts": self._ts(),
            "thread_ts": thread_ts,
            "team": self.team_id,
            "streaming": "in_progress",
        }
        _keep_tasks(message, args)
        with self._lock:
            self._messages[channel].append(message)
            self._streams[message["ts"]] = "in_progress"
            self._stream_started[message["ts"]] = time.monotonic()
            self._made.add(message["ts"])
            self._status.pop((channel, thread_ts), None)  # a reply ends the thread's status
        return {"ok": True, "channel": channel, "ts": message["ts"]}

    def _stream_call(self, args: dict[str, Any], *, stop: bool) -> dict[str, Any]:
        ts = str(args.get("ts") or "")
        if not _chunks_ok(args):
            return {"ok": False, "error": "invalid_arguments"}
        text = _stream_text(args)
        if len(text) > STREAM_TEXT_LIMIT:
            return {"ok": False, "error": "msg_too_long"}
        with self._lock:
            state = self._streams.get(ts)
            if state is None:
                return {"ok": False, "error": "message_not_found"}
            ttl, started = self._stream_ttl, self._stream_started.get(ts, 0.0)
            if state == "in_progress" and ttl is not None and time.monotonic() - started > ttl:
                state = self._streams[ts] = "completed"
                self._set_stream(ts, streaming="completed")
            if state == "stopped":
                return {"ok": False, "error": "stopped_by_user"}
            if state != "in_progress":
                return {"ok": False, "error": "message_not_in_streaming_state"}
            message = self._set_stream(ts)
            if message is None:  # deleted meanwhile
                return {"ok": False, "error": "message_not_found"}
            message["text"] += text
            _keep_tasks(message, args)
            if stop:
                self._streams[ts] = "completed"
                message["streaming"] = "completed"
                if args.get("blocks") is not None:
                    message["blocks"] = args["blocks"]
            self._lock.notify_all()
        return {"ok": True, "channel": args.get("channel"), "ts": ts}

    def _m_chat_appendStream(self, args: dict[str, Any]) -> dict[str, Any]:
        if not _has_content(args):  # an append needs something to append
            return {"ok": False, "error": "invalid_arguments"}
        return self._stream_call(args, stop=False)

    def _m_chat_stopStream(self, args: dict[str, Any]) -> dict[str, Any]:
        return self._stream_call(args, stop=True)


class SessionMethods:
    """Agent sessions for `FakeSlackAPI`: `agents.sessions.setStatus` and `.rename`."""

    _lock: threading.Condition
    _sessions: dict[tuple[str, str], dict[str, Any]]

    def session(self, channel: str, thread_ts: str) -> dict[str, Any] | None:
        """The thread's agent session as a person sees it (None: there is none)."""
        with self._lock:
            found = self._sessions.get((channel, thread_ts))
            return dict(found) if found is not None else None

    def session_statuses(self, channel: str, thread_ts: str) -> list[str]:
        """Every status the thread's session was given, in order."""
        with self._lock:
            found = self._sessions.get((channel, thread_ts))
            return list(found["history"]) if found is not None else []

    def _m_agents_sessions_setStatus(self, args: dict[str, Any]) -> dict[str, Any]:
        status = str(args.get("status") or "")
        channel, thread_ts = str(args.get("channel_id") or ""), str(args.get("thread_ts") or "")
        if status not in SESSION_STATUSES:
            return {"ok": False, "error": "invalid_status"}
        if not channel or not thread_ts:
            return {"ok": False, "error": "invalid_arguments"}
        title = args.get("title")
        if title is not None and len(str(title)) > 200:
            return {"ok": False, "error": "invalid_title"}
        with self._lock:
            found = self._sessions.get((channel, thread_ts))
            if found is None:  # created: the title and the initiator count only now
                found = self._sessions[(channel, thread_ts)] = {
                    "title": str(title or ""),
                    "initiator": str(args.get("initiator_user_id") or ""),
                    "history": [],
                }
            found["status"] = status
            found["history"].append(status)
            self._lock.notify_all()
        return {"ok": True, "status": status, "title": found["title"]}

    def _m_agents_sessions_rename(self, args: dict[str, Any]) -> dict[str, Any]:
        channel, thread_ts = str(args.get("channel_id") or ""), str(args.get("thread_ts") or "")
        title = str(args.get("title") or "")
        if not title or len(title) > 200:
            return {"ok": False, "error": "invalid_title"}
        with self._lock:
            found = self._sessions.get((channel, thread_ts))
            if found is None:
                return {"ok": False, "error": "session_not_found"}
            found["title"] = title
        return {"ok": True, "title": title}


def _chunks_ok(args: Mapping[str, Any]) -> bool:
    """Whether every chunk has the shape Slack documents for its type."""
    chunks = args.get("chunks")
    if chunks is None:
        return True
    if not isinstance(chunks, list):
        return False
    for chunk in chunks:
        if not isinstance(chunk, dict):
            return False
        kind = chunk.get("type")
        if kind == "markdown_text":
            ok = isinstance(chunk.get("text"), str)
        elif kind == "plan_update":
            ok = isinstance(chunk.get("title"), str) and bool(chunk["title"])
        elif kind == "task_update":
            ok = (
                all(isinstance(chunk.get(k), str) and chunk[k] for k in ("id", "title"))
                and chunk.get("status") in TASK_STATUSES
                and all(
                    isinstance(source, dict)
                    and source.get("type") == "url"
                    and all(isinstance(source.get(k), str) for k in ("url", "text"))
                    for source in chunk.get("sources") or []
                )
            )
        else:
            ok = False
        if not ok:
            return False
    return True


def _keep_tasks(message: dict[str, Any], args: Mapping[str, Any]) -> None:
    """A stream message keeps its plan's title and each task's latest update."""
    for chunk in args.get("chunks") or []:
        if chunk.get("type") == "plan_update":
            message["plan"] = chunk["title"]
        elif chunk.get("type") == "task_update":
            tasks = message.setdefault("tasks", {})
            tasks[chunk["id"]] = {k: v for k, v in chunk.items() if k != "type"}


def _has_content(args: Mapping[str, Any]) -> bool:
    """Whether a call carries `markdown_text` or `chunks` (Slack wants one of them)."""
    return bool(args.get("markdown_text")) or bool(args.get("chunks"))


def _stream_text(args: Mapping[str, Any]) -> str:
    """The text a streaming call adds: `markdown_text`, then any markdown_text chunks."""
    text = str(args.get("markdown_text") or "")
    chunks = args.get("chunks")
    if isinstance(chunks, list):
        for chunk in chunks:
            if isinstance(chunk, dict) and chunk.get("type") == "markdown_text":
                text += str(chunk.get("text") or "")
    return text


__all__ = ["STREAM_TEXT_LIMIT", "SessionMethods", "StreamingMethods"]
