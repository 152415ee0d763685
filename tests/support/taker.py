"""Servers that fail a request in transport, for the tests of what is sent again.

`Taker` reads each request whole, counts it (`taken`), and resets the connection
without answering: the request may have been acted on, and the client cannot know.
`closed_url` is a URL on a port nothing listens on: the connection is refused and
nothing is sent.
"""

from __future__ import annotations

import re
import socket
import struct
import threading
from collections.abc import Iterator

import pytest


class Taker:
    """A TCP server that reads each request whole, counts it, and resets the connection
    without answering: the request may have been acted on."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/api/chat.postMessage"
        self.taken = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            with conn:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
                head, _, body = data.partition(b"\r\n\r\n")
                size = re.search(rb"(?i)content-length:\s*(\d+)", head)
                while size and len(body) < int(size.group(1)):
                    body += conn.recv(65536)
                self.taken += 1
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def taker() -> Iterator[Taker]:
    server = Taker()
    yield server
    server.close()


@pytest.fixture
def closed_url() -> str:
    """A URL on a port nothing listens on: connecting is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/api/chat.postMessage"


__all__ = ["Taker", "closed_url", "taker"]
