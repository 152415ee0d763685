"""The console on a real (pseudo-)terminal: line editing and history, Ctrl-D and Ctrl-C.

`travel-bot chat` runs with a pty as its controlling terminal, so the keys a person
presses arrive as they would from a keyboard: arrow keys as escape sequences, Ctrl-C as
SIGINT from the terminal driver, Ctrl-D as end of input.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory import open_memory

UP, LEFT = "\x1b[A", "\x1b[D"
CTRL_C, CTRL_D = "\x03", "\x04"
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]")


class Terminal:
    """`travel-bot chat` on a pseudo-terminal; `expect` reads until a text appears."""

    def __init__(self, tmp_path: Path) -> None:
        (tmp_path / "inputrc").write_text("")  # readline's defaults, whatever ~/.inputrc says
        env = {
            **os.environ,
            "TERM": "xterm",
            "INPUTRC": str(tmp_path / "inputrc"),
            "LLM_MODEL": "",
            "MEMORY_DSN": f"sqlite:///{tmp_path}/cli.db",
            "REDIS_URL": "",
        }
        self.main, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "chat"],
            stdin=follower,
            stdout=follower,
            stderr=follower,
            env=env,
            cwd=tmp_path,
            start_new_session=True,  # a session of its own, with the pty as its terminal
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),
        )
        os.close(follower)
        self.output = ""
        self.read_to = 0

    def send(self, keys: str) -> None:
        os.write(self.main, keys.encode())

    def interrupt(self) -> None:
        """Ctrl-C at the prompt just shown, once readline waits for a key: a SIGINT in the
        instant between drawing the prompt and waiting is lost by CPython's readline loop
        (it would take a second Ctrl-C), which no person can hit but a test can."""
        time.sleep(0.5)
        self.send(CTRL_C)

    def expect(self, text: str, timeout: float = 60) -> str:
        """Everything shown up to and including `text` since the last `expect`."""
        deadline = time.monotonic() + timeout
        while text not in self.output[self.read_to :]:
            assert time.monotonic() < deadline, f"{text!r} not shown; shown: {self.output!r}"
            if not self._read(0.1):
                assert text in self.output[self.read_to :], (
                    f"ended before {text!r}: {self.output!r}"
                )
        end = self.output.index(text, self.read_to) + len(text)
        shown, self.read_to = self.output[self.read_to : end], end
        return shown

    def finish(self, timeout: float = 30) -> int:
        """Read to the end; the exit status."""
        deadline = time.monotonic() + timeout
        while self._read(0.1):
            assert time.monotonic() < deadline, f"still running: {self.output!r}"
        return self.process.wait(timeout=timeout)

    def _read(self, wait: float) -> bool:
        """Read what is there; False once the terminal is closed by the other side."""
        ready, _, _ = select.select([self.main], [], [], wait)
        if not ready:
            return self.process.poll() is None or self._pending()
        try:
            chunk = os.read(self.main, 65536)
        except OSError:  # EIO: every process holding the terminal has ended
            return False
        self.output += chunk.decode("utf-8", "replace")
        return bool(chunk)

    def _pending(self) -> bool:
        ready, _, _ = select.select([self.main], [], [], 0)
        return bool(ready)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.main)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = Terminal(tmp_path)
    yield term
    term.close()


def _plain(text: str) -> str:
    return _ESCAPES.sub("", text)


def test_lines_are_edited_and_earlier_ones_come_back_then_ctrl_c_ends_it(
    terminal: Terminal,
) -> None:
    terminal.expect("> ")
    terminal.send("/remember I like aisle seats\r")
    terminal.expect("Remembered: I like aisle seats")
    terminal.expect("> ")
    terminal.send(UP + "\r")  # the line before, from this session's history
    terminal.expect("Already remembered: I like aisle seats")
    terminal.expect("> ")
    terminal.send("/recll" + LEFT + LEFT + "a\r")  # "/recll", two left, "a": "/recall"
    recalled = terminal.expect("I like aisle seats.")
    assert "Unknown command" not in recalled
    terminal.expect("> ")
    terminal.interrupt()
    status = terminal.finish()
    assert status == 130
    assert "^[[A" not in terminal.output  # arrow keys are keys, not text
    assert "Traceback" not in terminal.output and "KeyboardInterrupt" not in terminal.output
    # The shell's prompt will start on a line of its own.
    assert _plain(terminal.output).rstrip(" ").endswith("\n")


def test_ctrl_d_ends_the_line_and_the_console_with_status_0(terminal: Terminal) -> None:
    terminal.expect("> ")
    terminal.send(CTRL_D)
    status = terminal.finish()
    assert status == 0
    assert "Traceback" not in terminal.output
    assert _plain(terminal.output).endswith("> \r\n")  # not left on the prompt's line


def test_ctrl_c_at_the_forget_all_question_forgets_nothing(
    terminal: Terminal, tmp_path: Path
) -> None:
    terminal.expect("> ")
    terminal.send("/remember I never take red-eye flights\r")
    terminal.expect("> ")
    terminal.send("/forget all\r")
    terminal.expect("history included? [y/N] ")
    terminal.interrupt()
    assert terminal.finish() == 130
    assert "Traceback" not in terminal.output
    memory = open_memory(dsn=f"sqlite:///{tmp_path}/cli.db", redis_url="")
    try:
        assert [i.text for i in memory.items("local:you")] == ["I never take red-eye flights"]
    finally:
        memory.close()
