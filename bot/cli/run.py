"""`travel-bot serve | socket | run`: the chat processes.

- `serve`: HTTP mode on `$PORT` (uvicorn): one application (`bot.web.app`) on which each
  configured channel mounts its routes (Slack: `/slack/events`), plus `/healthz` and
  `/metrics`. This is where channels are wired; only the command line imports it.
- `socket`: Slack's Socket Mode with `SLACK_APP_TOKEN` (no public URL needed); each
  platform's long-connection mode is a verb of its own.
- `run`: Socket Mode when `SLACK_APP_TOKEN` and `SLACK_BOT_TOKEN` are set, HTTP mode when
  `SLACK_BOT_TOKEN` and `SLACK_SIGNING_SECRET` are, otherwise the terminal console.

Feishu (issue 15): `serve` also mounts `POST /feishu/events` when `FEISHU_APP_ID`,
`FEISHU_APP_SECRET` and `FEISHU_VERIFICATION_TOKEN` are set; `feishu` is Feishu's long
connection (no public URL needed); `run` picks it when only Feishu credentials are set.
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
from typing import TYPE_CHECKING, Any

from bot.settings import Settings

if TYPE_CHECKING:
    from bot.deps import Deps

log = logging.getLogger(__name__)

CONSOLE_USER = "local:you"


def register(subparsers: Any) -> None:
    serve = subparsers.add_parser("serve", help="Slack HTTP mode: events, health and metrics")
    serve.add_argument("--host", default=None, help="address to bind (default WEB_HOST, 0.0.0.0)")
    serve.add_argument("--port", type=int, default=None, help="port (default PORT, 3000)")
    serve.set_defaults(handler=serve_command)

    socket = subparsers.add_parser("socket", help="Slack Socket Mode (needs SLACK_APP_TOKEN)")
    socket.set_defaults(handler=socket_command)

    # Feishu (issue 15): the long connection.
    feishu = subparsers.add_parser(
        "feishu", help="Feishu long connection (needs FEISHU_APP_ID and FEISHU_APP_SECRET)"
    )
    feishu.set_defaults(handler=feishu_command)

    run = subparsers.add_parser(
        "run", help="Socket Mode, HTTP mode or the console, from what is configured"
    )
    run.add_argument("--user", default=CONSOLE_USER, help="console namespace (console only)")
    run.set_defaults(handler=run_command)


def pick_mode(settings: Settings) -> str:
    """`socket`, `serve`, `feishu` or `console`, from the credentials that are set."""
    if settings.slack_bot_token and settings.slack_app_token:
        return "socket"
    if settings.slack_bot_token and settings.slack_signing_secret:
        return "serve"
    if settings.feishu_configured:  # Feishu (issue 15): only Feishu's credentials
        return "feishu"
    return "console"


def run_command(args: argparse.Namespace, settings: Settings) -> int:
    mode = pick_mode(settings)
    if mode == "socket":
        return socket_command(args, settings)
    if mode == "serve":
        return serve_command(args, settings)
    if mode == "feishu":
        return feishu_command(args, settings)
    from bot.cli.chat import run_console

    print(
        "No Slack credentials (SLACK_BOT_TOKEN with SLACK_APP_TOKEN or SLACK_SIGNING_SECRET) "
        "and no Feishu ones (FEISHU_APP_ID with FEISHU_APP_SECRET): "
        f"starting the terminal console as {args.user}.",
        file=sys.stderr,
    )
    return run_console(settings, user=args.user, stdin=sys.stdin, stdout=sys.stdout)


def serve_command(args: argparse.Namespace, settings: Settings) -> int:
    missing = [
        name
        for name, value in (
            ("SLACK_BOT_TOKEN", settings.slack_bot_token),
            ("SLACK_SIGNING_SECRET", settings.slack_signing_secret),
        )
        if not value
    ]
    feishu = _feishu_http(settings)  # Feishu (issue 15)
    if missing and not feishu:
        print(f"error: HTTP mode needs {' and '.join(missing)}", file=sys.stderr)
        print(
            "  (or, for Feishu: FEISHU_APP_ID, FEISHU_APP_SECRET and FEISHU_VERIFICATION_TOKEN)",
            file=sys.stderr,
        )
        return 2
    from bot.deps import Deps
    from bot.slack import http as slack_http
    from bot.web.app import WebApp
    from bot.web.server import Server

    host = getattr(args, "host", None) or settings.web_host
    port = getattr(args, "port", None) or settings.port
    deps = Deps.open(settings)
    web = WebApp(deps)
    try:
        if not missing:  # each configured channel mounts its routes
            slack_http.mount(web, settings, deps)
        if feishu:  # Feishu (issue 15)
            from bot.feishu import http as feishu_http

            feishu_http.mount(web, settings, deps)
        server = Server(web, host=host, port=port)
        _announce(deps, f"HTTP mode on {host}:{server.port}")
        server.serve_forever()
        return 0
    finally:
        web.close()
        deps.close()


def socket_command(
    args: argparse.Namespace, settings: Settings, *, stop: threading.Event | None = None
) -> int:
    """Serve Slack over Socket Mode until interrupted (or until `stop` is set)."""
    if not settings.slack_app_token or not settings.slack_bot_token:
        print("error: Socket Mode needs SLACK_APP_TOKEN and SLACK_BOT_TOKEN", file=sys.stderr)
        return 2
    from bot.deps import Deps
    from bot.slack.socket_mode import serve_socket_mode

    deps = Deps.open(settings)
    try:
        _announce(deps, "Socket Mode")
        serve_socket_mode(settings, deps, stop=stop or threading.Event())
        return 0
    except KeyboardInterrupt:
        return 0
    finally:
        deps.close()


# Feishu (issue 15) ------------------------------------------------------------------------


def _feishu_http(settings: Settings) -> bool:
    """Whether Feishu's callbacks can be served (the app, and a token to verify them)."""
    return settings.feishu_configured and bool(settings.feishu_verification_token)


def feishu_command(
    args: argparse.Namespace, settings: Settings, *, stop: threading.Event | None = None
) -> int:
    """Serve Feishu over its long connection until SIGINT/SIGTERM (or until `stop` is set),
    then disconnect, so no client outlives the process."""
    if not settings.feishu_configured:
        print(
            "error: the Feishu long connection needs FEISHU_APP_ID and FEISHU_APP_SECRET",
            file=sys.stderr,
        )
        return 2
    import signal

    from bot.deps import Deps
    from bot.feishu.long_connection import serve_long_connection

    event = stop or threading.Event()
    previous: dict[signal.Signals, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, lambda signum, frame: event.set())
    deps = Deps.open(settings)
    try:
        _announce(deps, "Feishu long connection")
        serve_long_connection(settings, deps, stop=event)
        return 0
    except Exception as exc:  # Feishu refused the app id or secret
        print(f"error: the Feishu long connection failed: {exc}", file=sys.stderr)
        return 1
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        deps.close()


def _announce(deps: Deps, mode: str) -> None:
    if deps.agent is None:
        log.warning("no LLM configured (LLM_MODEL): the bot will say it is not set up")
    log.info("travel-bot: %s", mode)


__all__ = ["CONSOLE_USER", "pick_mode", "register"]
