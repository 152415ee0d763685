"""A private `redis-server` a test may kill, freeze and start again (never the shared one).

    server = RedisServer(tmp_path).start()
    server.kill()      # gone: connections are refused
    server.start()     # back on the same port, empty (no persistence)
    server.freeze()    # SIGSTOP: connections hang, replies never come
    server.thaw()      # SIGCONT
    server.stop()

The server listens on 127.0.0.1 on a free port (`services.free_port`), keeps nothing on
disk, and is stopped (thawed first) by `stop`, which the fixtures call whatever happened.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import redis

from tests.support.services import free_port


class RedisServer:
    """One `redis-server` process of this test's own; see the module docstring."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed; the outage tests need it")
        self.binary = binary
        self.workdir = workdir
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.frozen = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self, timeout: float = 2.0) -> redis.Redis:
        """A client of its own (the caller closes it)."""
        return redis.Redis(
            host="127.0.0.1", port=self.port, socket_timeout=timeout, socket_connect_timeout=timeout
        )

    def start(self) -> RedisServer:
        """Start it (again, on the same port) and wait until it answers."""
        if self.proc is not None:
            return self
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
        )
        probe = self.client(timeout=0.5)
        deadline = time.monotonic() + 10
        try:
            while True:
                try:
                    probe.ping()
                    return self
                except redis.ConnectionError:
                    if self.proc.poll() is not None or time.monotonic() > deadline:
                        raise
                    time.sleep(0.02)
        finally:
            probe.close()

    def kill(self) -> None:
        """SIGKILL: everything it held is gone, connections are refused."""
        proc, self.proc = self.proc, None
        if proc is not None:
            if self.frozen:
                os.kill(proc.pid, signal.SIGCONT)
                self.frozen = False
            proc.kill()
            proc.wait()

    def freeze(self) -> None:
        """SIGSTOP: the port still accepts connections, nothing is answered."""
        if self.proc is not None and not self.frozen:
            os.kill(self.proc.pid, signal.SIGSTOP)
            self.frozen = True

    def thaw(self) -> None:
        """SIGCONT: answers again, with everything it held."""
        if self.proc is not None and self.frozen:
            os.kill(self.proc.pid, signal.SIGCONT)
            self.frozen = False

    def stop(self) -> None:
        self.kill()


__all__ = ["RedisServer"]
