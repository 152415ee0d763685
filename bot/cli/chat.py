"""`travel-bot chat [--user NS]`: the agent and memory in a terminal, for people without Slack.

Reads one message per line from standard input (piped input works; the prompt is shown
only on a terminal, where lines can be edited and this session's earlier lines come back
with the arrow keys, through the standard library's `readline`; nothing typed is written
to a history file, as it may hold what the privacy guard refused). Ctrl-D ends the
session (status 0), Ctrl-C too (status 130), without a traceback. Memory commands work
with or without a language model: `/remember TEXT`, `/recall [QUERY]`, `/prefs` (the
readable view `travel-bot memory show` and the web page share, `bot.prefs.remembered`),
`/forget ID|all` (an id as `/prefs` shows it, or its unambiguous beginning; `all` asks
first), `/help`, `/quit`; and the chat platforms' preferences commands, read by the same
parser (`bot.flows.commands`): `/travel-prefs`, `我的偏好` show, `/travel-prefs forget`,
`删除我的偏好` forget everything (asking first); `/travel-prefs link` prints the
person's one-time link to the preferences page, as Slack's does (or what to set). A
model that does not answer is named by its URL, and memory commands go on; a store that
does not answer is told as a failed read, erase or save.

While the agent works, each step it takes shows as a dim line ("· Recalling your travel
preferences"), and under the answer a dim line says which remembered preferences it
used, with when each was said (`bot.conversation.work`); on a terminal only (piped
output stays the conversation alone).

The terminal shows only the conversation: logs go to a file (`--log-file`, by default
`data/travel-bot.log`); a Redis that does not answer is said once at the start ("cache
off"), then memory works without it. `travel-bot run` with no platform starts this.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from bot.agent.tools import ToolContext
from bot.channels import CONSOLE
from bot.cli import logs
from bot.cli.console_input import Reader, isatty, said_to_the_bot
from bot.cli.language import operator_lang
from bot.cli.options import add_console
from bot.cli.services import memory_problem
from bot.compose.links import preferences_url
from bot.compose.parts import open_revocations
from bot.conversation.work import Step, Steps, Work
from bot.errors import LLMUnavailable
from bot.flows.actions import FORGET_PREFS, FORGET_PREFS_NO, SHOW_PREFS
from bot.flows.commands import PREFS, Command, parse_command, tidy
from bot.messages import lang_of, rejection, t
from bot.prefs.remembered import match_id, read_view, view_lines
from bot.prefs.revocations import forget_everything
from bot.settings import Settings
from memory.errors import MemoryEngineError, StoreUnavailable
from memory.intake import says_nothing
from memory.lang import Lang
from memory.privacy.verdict import verdict

if TYPE_CHECKING:
    from bot.agent.loop import Agent
    from bot.policy.store import PolicyBook
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)

PROMPT = "> "
LINK = f"{PREFS} link"
MAX_HISTORY_MESSAGES = 20
MAX_QUOTED_CHARS = 200  # a longer line is not repeated back
INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as a shell reports it
YES = ("y", "yes", "是", "是的", "确定", "确认")
DIM, PLAIN = "\x1b[2m", "\x1b[0m"  # a step's line on a terminal
# What a command says when the store cannot be reached (a save's words otherwise).
_FAILED = dict.fromkeys(("/prefs", "/recall"), "home_unavailable")
_FAILED["/forget"] = "memory_forget_failed"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "chat",
        help="talk to the assistant in the terminal (reads standard input)",
        description="Talk to the assistant in the terminal: one message per line; "
        "/help lists the memory commands.",
    )
    add_console(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    return start_console(args, settings)


def start_console(args: argparse.Namespace, settings: Settings, *, notice: str = "") -> int:
    """The console on this terminal in the operator's language (`bot.cli.language`), logs
    to `--log-file`; the message `notice` names goes to standard error first."""
    lang = operator_lang(settings)
    problem = memory_problem(settings, lang)  # one line and exit 2, never a dead console
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    if notice:
        print(t(notice, lang, user=args.user), file=sys.stderr)
    log_file = logs.to_file(args.log_file, args.log_level)
    return run_console(
        settings,
        user=args.user,
        stdin=sys.stdin,
        stdout=sys.stdout,
        tz=args.tz,
        log_file=str(log_file) if log_file else None,
        lang=lang,
    )


def run_console(
    settings: Settings,
    *,
    user: str,
    stdin: TextIO,
    stdout: TextIO,
    memory: LongTermMemory | None = None,
    agent: Agent | None = None,
    tz: str | None = None,
    log_file: str | None = None,
    lang: Lang | None = None,
) -> int:
    """Run a console session until end of input or `/quit`; returns the exit status.

    Without `memory` the configured one is opened (and closed at the end); without
    `agent` one is built from `settings` (none when no LLM is configured). `log_file`
    is named once at the start; `lang` (default `DEFAULT_LANGUAGE`) until the person writes.
    """
    if not user.strip():
        print("error: --user must name a namespace, e.g. T024BE7LD:U01ABC", file=stdout)
        return 2
    owned = memory is None
    if memory is None:
        from memory import open_memory

        memory = open_memory(settings)
    policy: PolicyBook | None = None
    try:
        if agent is None:
            from bot.compose.parts import build_agent, open_policy_book, travel_tools

            policy = open_policy_book(settings)
            tools = travel_tools(settings, memory, policy=policy)
            agent = build_agent(settings, memory, extra_tools=tools)
        session = _Session(
            settings=settings,
            user=user.strip(),
            memory=memory,
            agent=agent,
            stdout=stdout,
            tz=tz or settings.travel_timezone,
            lang=lang or settings.default_language,
        )
        session.notices(
            cache_off=bool(settings.redis_url) and not memory.cache.ping(), log_file=log_file
        )
        return session.loop(stdin)
    finally:
        if policy is not None:
            policy.close()
        if owned:
            memory.close()


class _Session:
    def __init__(
        self,
        *,
        settings: Settings,
        user: str,
        memory: LongTermMemory,
        agent: Agent | None,
        stdout: TextIO,
        tz: str,
        lang: Lang,
    ) -> None:
        self.settings = settings
        self.user = user
        self.memory = memory
        self.agent = agent
        self.out = stdout
        self.tz = tz
        self.lang: Lang = lang
        self.history: list[dict[str, str]] = []
        team, _, member = user.rpartition(":")
        self.team_id, self.user_id = team, member

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def dim(self, text: str) -> None:
        """A line of the work, dim, on a terminal only: piped output is the talk alone."""
        if isatty(self.out):
            self.say(f"{DIM}{text}{PLAIN}")

    def step(self, step: Step) -> None:
        if step.status == "in_progress":
            self.dim(f"· {step.title}")

    def notices(self, *, cache_off: bool, log_file: str | None) -> None:
        """What the person should know once, before the conversation starts."""
        self.say(t("console_welcome", self.lang, user=self.user))
        if cache_off:
            self.say(t("console_cache_off", self.lang))
        if log_file:
            self.say(t("console_log_file", self.lang, path=log_file))
        if self.agent is None:
            self.say(t("console_no_llm", self.lang))

    def loop(self, stdin: TextIO) -> int:
        self.reader = Reader(stdin, self.out)
        try:
            while True:
                line = self.reader.line(PROMPT)
                if line is None:
                    return 0
                line = line.strip()
                if not line:
                    continue
                command = parse_command(line, default_lang=self.lang)
                if tidy(line).lower() == LINK:  # as Slack's: this person's page
                    self.link()
                elif command is not None:  # 我的偏好, /travel-prefs forget: as on every platform
                    self.preferences(command)
                elif line.startswith("/"):
                    if not self.command(line):
                        return 0
                else:
                    self.chat(line)
        except KeyboardInterrupt:  # Ctrl-C at the prompt or during a turn
            self.reader.end_line()
            return INTERRUPTED

    # -- chat ---------------------------------------------------------------------------

    def chat(self, text: str) -> None:
        self.lang = lang_of(text, self.lang)
        if self.agent is None:  # nothing is kept: say how, with the line to type
            self.say(t("console_no_llm_reminder", self.lang))
            quotable = len(text) <= MAX_QUOTED_CHARS and not said_to_the_bot(text)
            if quotable and not says_nothing(text) and verdict(text) is None:  # never a password
                self.say(t("console_no_llm_not_kept", self.lang, text=text))
            return
        limit = self.settings.max_message_chars  # as every platform: never sent to the model
        if len(text) > limit:
            self.say(t("message_too_long", self.lang, length=len(text), limit=limit))
            return
        steps = Steps(self.lang, on_step=self.step)
        ctx = ToolContext(
            platform=CONSOLE,
            namespace=self.user,
            user_id=self.user_id,
            tenant=self.team_id,
            lang=self.lang,
            tz=self.tz,
            progress=steps,
        )
        try:
            reply = self.agent.run(ctx, text, history=self.history)
        except LLMUnavailable as exc:
            log.warning("console turn failed: %s", exc)  # the English detail
            url = self.agent.model.base_url
            why = t(exc.reason_key, self.lang, status=exc.status, attempts=exc.attempts)
            self.say(t("console_llm_unavailable", self.lang, url=url, reason=why))
            return
        except Exception as exc:
            log.warning("console turn failed: %s", type(exc).__name__)
            self.say(t("internal_error", self.lang))
            return
        self.say(reply.text)
        used = Work((), reply.used, reply.lang).used_line()
        if used:
            self.dim(used)
        self.history += [
            {"role": "user", "content": text},
            {"role": "assistant", "content": reply.text},
        ]
        del self.history[:-MAX_HISTORY_MESSAGES]

    # -- memory commands ----------------------------------------------------------------

    def command(self, line: str) -> bool:
        """Run a slash command; False when the session should end."""
        name, _, rest = line.partition(" ")
        name, rest = name.lower(), rest.strip()
        said = lang_of(rest, self.lang)
        if name != "/forget" or said == "zh":  # an id or "all" is no language of its own
            self.lang = said
        if name in ("/quit", "/exit", "/q"):
            return False
        handlers = {
            "/remember": self.remember,
            "/recall": self.recall,
            "/prefs": self.prefs,
            "/forget": self.forget,
        }
        if name in ("/help", "/?"):
            self.say(t("console_help", self.lang))
        elif name in handlers:
            self.guarded(name, lambda: handlers[name](rest))
        else:
            self.say(t("console_unknown_command", self.lang, command=name))
        return True

    def preferences(self, command: Command) -> None:
        """A preferences command as the chat platforms read it (`bot.flows.commands`):
        show, help, forget everything (asking first), or not forget after all."""
        self.lang = command.lang
        if command.action == SHOW_PREFS:
            self.guarded("/prefs", lambda: self.prefs(""))
        elif command.action == FORGET_PREFS:
            self.guarded("/forget", self.forget_all)
        elif command.action == FORGET_PREFS_NO:
            self.say(t("console_forget_all_kept", self.lang))
        else:
            self.say(t("console_help", self.lang))

    def guarded(self, name: str, run: Callable[[], None]) -> None:
        """`run()`, a store that does not answer said as what failed: a read, an erase
        or a save."""
        try:
            run()
        except StoreUnavailable:
            self.say(t(_FAILED.get(name, "memory_unavailable"), self.lang))
        except (MemoryEngineError, ValueError) as exc:
            self.say(f"error: {exc}")

    def remember(self, text: str) -> None:
        if not text:
            self.say(t("console_remember_usage", self.lang))
            return
        for outcome in self.memory.record(self.user, [text], source="console"):
            reason = outcome.reason
            if outcome.status == "rejected":
                reason = rejection(outcome.code, outcome.reason, self.lang)
            self.say(t(f"console_{outcome.status}", self.lang, text=outcome.text, reason=reason))

    def recall(self, query: str) -> None:
        recalled = self.memory.recall(self.user, query)
        if recalled.status == "unavailable":
            self.say(t("home_unavailable", self.lang))  # not "nothing remembered"
            return
        self.say(recalled.summary or t("console_nothing_remembered", self.lang, user=self.user))

    def prefs(self, _: str) -> None:
        view = read_view(self.memory, self.user, self.lang)
        if not view.facts:
            self.say(t("console_nothing_remembered", self.lang, user=self.user))
            return
        self.say("\n".join(view_lines(view, self.lang)))

    def link(self) -> None:
        """A one-time link to this person's preferences page, or what to set for one."""
        url = preferences_url(self.settings, self.user, lang=self.lang)
        if url is None:
            self.say(t("console_link_off", self.lang))
            return
        minutes = self.settings.prefs_link_ttl_minutes
        self.say(t("prefs_link", self.lang, url=url, minutes=minutes))

    def forget(self, item_id: str) -> None:
        if not item_id:  # erasing everything takes an explicit word, as in Slack
            self.say(t("console_forget_how", self.lang))
            return
        if item_id.lower() == "all":
            self.forget_all()
            return
        named = match_id(item_id, [item.id for item in self.memory.items(self.user)])
        if len(named) > 1:
            self.say(t("console_forget_ambiguous", self.lang, item_id=item_id, count=len(named)))
            return
        count = min(self.memory.forget(self.user, named[0] if named else item_id), 1)
        if count == 0:
            self.say(t("console_forget_missing", self.lang, item_id=item_id))
        else:
            self.say(t("console_forgot", self.lang, count=count))

    def forget_all(self) -> None:
        """Ask first, as the CLI and Slack do; the next line answers (also when piped)."""
        count = len(self.memory.items(self.user))  # current facts, not the history they replaced
        if not count:
            self.say(t("console_nothing_remembered", self.lang, user=self.user))
            return
        question = t("console_forget_all_ask", self.lang, count=count, user=self.user)
        answer = self.reader.ask(question)
        if (answer or "").strip().lower() not in YES:
            self.say(t("console_forget_all_kept", self.lang))
            return
        revocations = open_revocations(self.settings)  # its links to the page end too
        try:
            forget_everything(self.memory, revocations, self.user)
        finally:
            revocations.close()
        self.say(t("console_forgot", self.lang, count=count))


__all__ = ["register", "run", "run_console"]
