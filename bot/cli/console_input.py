"""Lines the console reads: on a terminal with a prompt, line editing and this session's
history (the standard library's `readline`, never written to a file); piped, plain lines."""

from __future__ import annotations

import re
import sys
from typing import TextIO

# Said to the assistant, never a preference: no "/remember 你好" advice for a greeting, thanks
# or a question ("what can you do?", 能帮我订票吗).
_SAID_TO_THE_BOT = re.compile(
    r"^(?:(?:hi|hello|hey|thanks?|thank you|ok|okay|bye|good (?:morning|afternoon|evening))\b"
    r"[\s!.,~]*(?:there|bot|again)?[\s!.,~]*"
    r"|(?:你好|您好|嗨|哈喽|在吗|在不在|谢谢|多谢|好的|再见|早上好|晚上好)[\s!！。，~啊呀呢]*)$"
    r"|[?？]\s*$|[吗呢么]\s*[?？]?\s*$",
    re.IGNORECASE,
)


def said_to_the_bot(text: str) -> bool:
    """A greeting, thanks or question: what no one asks to have remembered."""
    return _SAID_TO_THE_BOT.search(text) is not None


class Reader:
    """Lines of standard input. On a terminal: the prompt, line editing and this session's
    history (`readline`, through `input`); piped: plain lines, no prompt."""

    def __init__(self, stdin: TextIO, out: TextIO) -> None:
        self.stdin, self.out = stdin, out
        self.terminal = isatty(stdin)
        # `input` edits lines only on the process's own terminal.
        self.editing = self.terminal and stdin is sys.stdin and out is sys.stdout and readline_ok()

    def line(self, prompt: str) -> str | None:
        """The next line, or None at the end of input (Ctrl-D on a terminal)."""
        if self.editing:
            try:
                return input(prompt)
            except EOFError:
                self.end_line()
                return None
        if self.terminal:
            print(prompt, end="", file=self.out, flush=True)
        text = self.stdin.readline()
        if not text:
            self.end_line()
            return None
        return text

    def ask(self, question: str) -> str | None:
        """A question answered by the next line, which is kept out of the history."""
        prompt = f"{question} [y/N] "
        if not self.terminal:  # piped: the question stays in the transcript
            print(prompt.rstrip(), file=self.out, flush=True)
        answer = self.line(prompt)
        if self.editing and answer:
            import readline

            readline.remove_history_item(readline.get_current_history_length() - 1)
        return answer

    def end_line(self) -> None:
        """Finish the prompt's line on a terminal, so what follows starts on its own."""
        if self.terminal:
            print(file=self.out, flush=True)


def readline_ok() -> bool:
    try:
        import readline  # noqa: F401  (makes `input` edit lines and keep a history)
    except ImportError:  # a Python built without it: plain lines
        return False
    return True


def isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


__all__ = ["Reader", "isatty"]
