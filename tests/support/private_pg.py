"""A private PostgreSQL server for tests that stop or pause the database.

The shared server on 5432 is never touched: `PrivatePostgres(path)` runs `initdb` into
`path` and starts its own server on a free port (as the `postgres` user when the tests
run as root, since PostgreSQL refuses to run as root). `stop()` stops it at once (as a
crash would), `start()` brings it back on the same port, `pause()`/`resume()` freeze and
thaw every one of its processes (SIGSTOP/SIGCONT): a server that accepts connections
and never answers.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

from tests.support.services import free_port


def available() -> bool:
    return shutil.which("initdb") is not None and shutil.which("pg_ctl") is not None


class PrivatePostgres:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.data = path / "data"
        self.port = free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            self._as = ["runuser", "-u", "postgres", "--"]
            path.mkdir(parents=True, exist_ok=True)
            shutil.chown(path, "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres")

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        subprocess.run(
            [*self._as, *command], check=True, capture_output=True, timeout=60, cwd=self.path
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.path} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.path / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def _pids(self) -> list[int]:
        main = int((self.data / "postmaster.pid").read_text().split()[0])
        children = subprocess.run(
            ["pgrep", "-P", str(main)], capture_output=True, text=True, check=False
        ).stdout.split()
        return [main, *(int(pid) for pid in children)]

    def pause(self) -> None:
        for pid in self._pids():
            os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        for pid in self._pids():
            os.kill(pid, signal.SIGCONT)

    def close(self) -> None:
        try:
            self.resume()
            self.stop()
        except (OSError, subprocess.SubprocessError):
            pass
