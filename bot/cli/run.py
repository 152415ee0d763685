"""`travel-bot serve | socket | run`: the chat processes.

- `serve`: HTTP mode on `$PORT` (uvicorn): one application (`bot.web.app`) on which each
  configured channel mounts its routes (Slack: `/slack/events`), plus `/healthz`,
  `/metrics` and the preferences page (`/prefs`, `/api/preferences`) when configured.
  This is where channels are wired; only the command line imports it.
- `socket`: Slack's Socket Mode with `SLACK_APP_TOKEN` (no public URL needed); each
  platform's long-connection mode is a verb of its own.
- `run`: Socket Mode when `SLACK_APP_TOKEN` and `SLACK_BOT_TOKEN` are set, HTTP mode when
  `SLACK_BOT_TOKEN` and `SLACK_SIGNING_SECRET` are, otherwise the terminal console.
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

    run = subparsers.add_parser(
        "run", help="Socket Mode, HTTP mode or the console, from what is configured"
    )
    run.add_argument("--user", default=CONSOLE_USER, help="console namespace (console only)")
    run.set_defaults(handler=run_command)


def pick_mode(settings: Settings) -> str:
    """`socket`, `serve` or `console`, from the Slack credentials that are set."""
    if settings.slack_bot_token and settings.slack_app_token:
        return "socket"
    if settings.slack_bot_token and settings.slack_signing_secret:
        return "serve"
    return "console"


def run_command(args: argparse.Namespace, settings: Settings) -> int:
    mode = pick_mode(settings)
    if mode == "socket":
        return socket_command(args, settings)
    if mode == "serve":
        return serve_command(args, settings)
    from bot.cli.chat import run_console

    print(
        "No Slack credentials (SLACK_BOT_TOKEN with SLACK_APP_TOKEN or SLACK_SIGNING_SECRET): "
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
    if missing:
        print(f"error: HTTP mode needs {' and '.join(missing)}", file=sys.stderr)
        return 2
    from bot.deps import Deps
    from bot.slack import http as slack_http
    from bot.web import prefs as prefs_page
    from bot.web.app import WebApp
    from bot.web.server import Server

    host = getattr(args, "host", None) or settings.web_host
    port = getattr(args, "port", None) or settings.port
    deps = Deps.open(settings)
    web = WebApp(deps)
    try:
        slack_http.mount(web, settings, deps)  # each configured channel mounts its routes
        prefs_page.mount(web, settings, deps)  # the preferences page, when configured
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


def _announce(deps: Deps, mode: str) -> None:
    if deps.agent is None:
        log.warning("no LLM configured (LLM_MODEL): the bot will say it is not set up")
    log.info("travel-bot: %s", mode)


__all__ = ["CONSOLE_USER", "pick_mode", "register"]
