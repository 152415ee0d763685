"""Slow and idle clients cannot take the served bot down (issue 11), in this process.

Real sockets against the real server (`bot.http.server.Server`) with short deadlines;
the file-limit cases, which need a process of their own, are in `test_file_limit.py`.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import pytest

from bot.http import connections
from tests.bot.conftest import BotFactory
from tests.support.llm_server import ScriptedModel
from tests.support.slack_harness import BotHarness, sign

ALICE = "U0ALICE"
FRESH = "<the time the test runs>"


def connect(bot: BotHarness) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", bot.server.port), timeout=30)
    return sock


def closed_by_server(sock: socket.socket, timeout: float = 30.0) -> bool:
    """Whether the server closes `sock` within `timeout` (EOF or reset); what it sent
    before closing is read and dropped."""
    sock.settimeout(timeout)
    try:
        while sock.recv(65536):
            pass
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return True


def response_of(sock: socket.socket, timeout: float = 30.0) -> bytes:
    """The bytes the server sends before closing (or until a whole response is in)."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


@pytest.fixture(autouse=True, params=["httptools", "h11"])
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every case against both guarded protocols: httptools' (what runs) and h11's (the
    fallback where httptools cannot be imported)."""
    monkeypatch.setattr(connections, "_HTTPTOOLS", request.param == "httptools")
    return str(request.param)


@pytest.fixture
def sockets() -> Iterator[list[socket.socket]]:
    opened: list[socket.socket] = []
    yield opened
    for sock in opened:
        sock.close()


def test_a_connection_that_never_finishes_its_headers_is_closed(
    make_bot: BotFactory, sockets: list[socket.socket]
) -> None:
    bot = make_bot(http_header_timeout_seconds=1)
    silent = connect(bot)
    partial = connect(bot)
    partial.sendall(b"GET /healthz HTTP/1.1\r\nHost: bot\r\nX-Slow: ")
    sockets += [silent, partial]
    assert closed_by_server(silent)
    assert closed_by_server(partial)
    assert bot.http.get("/healthz").status_code == 200
    assert bot.server.guard.counts["header_timeout"] == 2


def test_a_body_that_does_not_arrive_is_cut_off_and_nothing_is_answered(
    make_bot: BotFactory, sockets: list[socket.socket], scripted_model: ScriptedModel
) -> None:
    bot = make_bot(http_body_timeout_seconds=1)
    body = json.dumps({"type": "event_callback", "event": {"type": "message"}}).encode()
    headers = sign(body)
    sock = connect(bot)
    sockets.append(sock)
    head = (
        "POST /slack/events HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"X-Slack-Request-Timestamp: {headers['X-Slack-Request-Timestamp']}\r\n"
        f"X-Slack-Signature: {headers['X-Slack-Signature']}\r\n\r\n"
    )
    sock.sendall(head.encode() + body[:10])  # and the rest never
    assert closed_by_server(sock)
    assert bot.server.guard.counts["body_timeout"] == 1
    assert scripted_model.requests == []
    assert bot.http.get("/healthz").status_code == 200


@pytest.mark.parametrize(
    ("extra", "status"),
    [
        ({"X-Slack-Request-Timestamp": str(int(time.time()) - 3600)}, b"401"),  # stale
        ({}, b"401"),  # no signature headers at all
        ({"X-Slack-Request-Timestamp": "now", "X-Slack-Signature": "v0=00"}, b"401"),
        ({"X-Slack-Request-Timestamp": FRESH, "X-Slack-Signature": "v0=0"}, b"413"),
    ],
)
def test_a_request_is_refused_on_its_headers_before_its_body_is_sent(
    bot: BotHarness, sockets: list[socket.socket], extra: dict[str, str], status: bytes
) -> None:
    sock = connect(bot)
    sockets.append(sock)
    headers = {"Host": "bot", "Content-Type": "application/json", "Content-Length": "50000000"}
    if extra:
        headers["X-Slack-Signature"] = "v0=" + "0" * 64
    headers.update(extra)
    if headers.get("X-Slack-Request-Timestamp") == FRESH:  # when the test runs, not collected
        headers["X-Slack-Request-Timestamp"] = str(int(time.time()))
    head = "POST /slack/events HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    sock.sendall(head.encode() + b"\r\n")  # 50 MB announced, not one byte of it sent
    assert response_of(sock).split(b" ")[1] == status


def test_an_idle_kept_alive_connection_outlives_the_header_deadline_until_keep_alive(
    make_bot: BotFactory, sockets: list[socket.socket]
) -> None:
    bot = make_bot(http_header_timeout_seconds=1)
    sock = connect(bot)
    sockets.append(sock)
    request = b"GET /healthz HTTP/1.1\r\nHost: bot\r\n\r\n"
    sock.sendall(request)
    assert b" 200 " in response_of(sock)
    time.sleep(2.5)  # idle past the header deadline: still open, as keep-alive allows
    sock.sendall(request)
    assert b" 200 " in response_of(sock)


def test_keep_alive_still_closes_an_idle_connection(
    bot: BotHarness, sockets: list[socket.socket]
) -> None:
    from bot.compose import server

    running = server(bot.web, bot.settings, keep_alive=1).start()
    try:
        sock = socket.create_connection(("127.0.0.1", running.port), timeout=30)
        sockets.append(sock)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: bot\r\n\r\n")
        assert b" 200 " in response_of(sock)
        assert closed_by_server(sock)
    finally:
        running.stop()


def test_at_the_connection_cap_idle_connections_make_way_for_real_requests(
    make_bot: BotFactory,
    sockets: list[socket.socket],
    scripted_model: ScriptedModel,
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = make_bot(http_max_connections=20, http_header_timeout_seconds=60)
    for _ in range(40):  # twice the cap, none of them ever sends a request
        sockets.append(connect(bot))
        sockets[-1].sendall(b"GET / HTTP/1.1\r\n")
    scripted_model.script("Still answering.")
    sent = bot.dm(ALICE, "are you there?")
    assert sent.response.status_code == 200
    assert bot.reply_text(sent) == "Still answering."
    assert bot.http.get("/healthz").status_code == 200
    # The oldest of them were closed to make room; the log says so once, not 20 times.
    assert closed_by_server(sockets[0])
    assert bot.server.guard.counts["evicted"] >= 20
    evictions = [r for r in caplog.records if "connection limit" in r.getMessage()]
    assert len(evictions) == 1, [r.getMessage() for r in evictions]
    assert "Traceback" not in caplog.text


def test_slow_bodies_at_the_cap_are_cut_off_so_a_real_event_gets_in(
    make_bot: BotFactory,
    sockets: list[socket.socket],
    scripted_model: ScriptedModel,
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = make_bot(http_max_bodies=4, http_body_timeout_seconds=60)
    for _ in range(8):  # twice the cap, each announcing 500 kB and sending 100 bytes
        sock = connect(bot)
        headers = sign(b"not the body")  # fresh, so the body is read to check it
        head = (
            "POST /slack/events HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json\r\n"
            "Content-Length: 500000\r\n"
            + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
            + "\r\n"
        )
        sock.sendall(head.encode() + b"x" * 100)
        sockets.append(sock)
    time.sleep(1.5)  # older than the grace a real body gets
    scripted_model.script("Still answering.")
    sent = bot.dm(ALICE, "are you there?")
    assert sent.response.status_code == 200
    assert bot.reply_text(sent) == "Still answering."
    assert b" 408 " in response_of(sockets[0])  # the first slow body was cut off
    assert bot.server.bodies.cut_off >= 1
    assert "Traceback" not in caplog.text
