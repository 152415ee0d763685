"""A throw-away local Redis Cluster: three `redis-server` masters on free ports."""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

MASTERS = 3
BUS_OFFSET = 10000  # a node's cluster bus listens on its port + 10000


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _free_ports(count: int) -> list[int]:
    """Ports free for a node and for its cluster bus (port + 10000)."""
    rng = random.Random()
    ports: list[int] = []
    while len(ports) < count:
        port = rng.randrange(20000, 55535 - BUS_OFFSET)
        if port not in ports and _bindable(port) and _bindable(port + BUS_OFFSET):
            ports.append(port)
    return ports


class LocalCluster:
    """Three masters in cluster mode, slots spread by `redis-cli --cluster create`."""

    def __init__(self, workdir: Path, server: str, cli: str) -> None:
        self.workdir = workdir
        self.server = server
        self.cli = cli
        self.ports = _free_ports(MASTERS)
        self.procs: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        """The spelling `REDIS_URL` takes for a cluster (one seed node is enough)."""
        return f"redis+cluster://127.0.0.1:{self.ports[0]}"

    def start(self) -> None:
        for port in self.ports:
            self.procs.append(
                subprocess.Popen(
                    [
                        self.server,
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        str(self.workdir / f"nodes-{port}.conf"),
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--daemonize",
                        "no",
                        "--dir",
                        str(self.workdir),
                    ],
                    stdout=subprocess.DEVNULL,
                )
            )
        for port, proc in zip(self.ports, self.procs, strict=True):
            self._wait(lambda port=port, proc=proc: self._up(port, proc), "node up")
        subprocess.run(
            [
                self.cli,
                "--cluster",
                "create",
                *(f"127.0.0.1:{port}" for port in self.ports),
                "--cluster-replicas",
                "0",
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=30,
        )
        for port in self.ports:
            self._wait(
                lambda port=port: "cluster_state:ok" in self._cli(port, "cluster", "info"),
                "cluster state ok",
            )

    def _up(self, port: int, proc: subprocess.Popen[bytes]) -> bool:
        if proc.poll() is not None:  # e.g. the port was taken meanwhile
            raise RuntimeError(f"local Redis Cluster: the node on port {port} exited")
        return self._cli(port, "ping") == "PONG"

    def _cli(self, port: int, *args: str) -> str:
        done = subprocess.run(
            [self.cli, "-p", str(port), *args], capture_output=True, text=True, timeout=5
        )
        return done.stdout.strip()

    @staticmethod
    def _wait(ready: Any, what: str, seconds: float = 20.0) -> None:
        deadline = time.monotonic() + seconds
        while not ready():
            if time.monotonic() > deadline:
                raise RuntimeError(f"local Redis Cluster: timed out waiting for {what}")
            time.sleep(0.1)

    def slot(self, key: str) -> int:
        return int(self._cli(self.ports[0], "cluster", "keyslot", key))

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.procs = []
        shutil.rmtree(self.workdir, ignore_errors=True)
