"""`travel-bot serve | socket | run`: the chat processes.

- `serve`: HTTP mode on `$PORT` (uvicorn): one application (`bot.http.app`) on which each
  configured channel mounts its routes (Slack: `/slack/events`), plus `/healthz`,
  `/metrics` (with `METRICS_TOKEN`, or on `METRICS_PORT`) and the preferences page
  (`/prefs`, `/api/preferences`) when configured. With no chat platform's callbacks
  configured but `PREFS_LINK_SECRET` set, it serves the page and the health checks alone
  (one notice says so). This is where channels are wired; only the command line imports it.
- `socket`: Slack's Socket Mode with `SLACK_APP_TOKEN` (no public URL needed); each
  platform's long-connection mode is a verb of its own.
- `dingtalk`: DingTalk's Stream mode with `DINGTALK_CLIENT_ID`/`DINGTALK_CLIENT_SECRET`
  (no public URL needed); `serve` also mounts DingTalk's HTTP mode (`/dingtalk/events`)
  when they are set.
- `feishu`: Feishu's long connection with `FEISHU_APP_ID`/`FEISHU_APP_SECRET` (no public
  URL needed); `serve` also mounts `POST /feishu/events` when `FEISHU_VERIFICATION_TOKEN`
  is set too.
- `run`: Socket Mode when `SLACK_APP_TOKEN` and `SLACK_BOT_TOKEN` are set, HTTP mode when
  `SLACK_BOT_TOKEN` and `SLACK_SIGNING_SECRET` are, Feishu's long connection or DingTalk's
  Stream mode when only their credentials are, the terminal console when no chat
  platform's credential is set at all. A platform configured in part (a bot token without
  its signing secret or app token) is an error naming what is missing, for `run` and
  `serve` alike and whatever else is configured: it never falls back to the console or
  to another platform (`bot.cli.credentials`).

Each of them, once its channels are built, runs the loop that tells travellers their
approval request expired (`bot.flows.expiry`; the `clock` holds no channel).
"""

from __future__ import annotations

import argparse
import errno
import logging
import socket
import sys
import threading
from typing import TYPE_CHECKING, Any

from bot.channels import CONSOLE_USER
from bot.cli import say
from bot.cli.credentials import PLATFORMS, PartlyConfigured, choose, http_channels
from bot.cli.language import operator_lang
from bot.cli.options import add_console, port
from bot.messages import t
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.compose import Core
    from bot.warming.scheduler import WarmClock

log = logging.getLogger(__name__)


def register(subparsers: Any) -> None:
    serve = subparsers.add_parser(
        "serve",
        help="HTTP mode (Slack, Feishu, DingTalk): events, health and metrics",
        description="Serve every configured chat platform's HTTP callbacks (Slack with "
        "SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET; Feishu with FEISHU_APP_ID, "
        "FEISHU_APP_SECRET and FEISHU_VERIFICATION_TOKEN; DingTalk with DINGTALK_CLIENT_ID "
        "and DINGTALK_CLIENT_SECRET) and the preferences page, with /healthz, /readyz and "
        "/metrics. With PREFS_LINK_SECRET and no chat platform, the page alone.",
    )
    serve.add_argument("--host", default=None, help="address to bind (default WEB_HOST, 0.0.0.0)")
    serve.add_argument("--port", type=port, default=None, help="port (default PORT, 3000)")
    serve.set_defaults(handler=serve_command)

    socket = subparsers.add_parser(
        "socket",
        help="Slack Socket Mode (needs SLACK_APP_TOKEN)",
        description="Connect to Slack over Socket Mode (needs SLACK_APP_TOKEN and "
        "SLACK_BOT_TOKEN); no public URL needed.",
    )
    socket.set_defaults(handler=socket_command)

    dingtalk = subparsers.add_parser(
        "dingtalk",
        help="DingTalk Stream mode (needs DINGTALK_CLIENT_ID and DINGTALK_CLIENT_SECRET)",
        description="Connect to DingTalk over Stream mode (no public URL needed).",
    )
    dingtalk.add_argument(
        "--health-port", type=port, default=None, help="also serve /healthz and /metrics here"
    )
    dingtalk.set_defaults(handler=dingtalk_command)

    feishu = subparsers.add_parser(
        "feishu",
        help="Feishu long connection (needs FEISHU_APP_ID and FEISHU_APP_SECRET)",
        description="Connect to Feishu (Lark) over its long connection (no public URL needed).",
    )
    feishu.set_defaults(handler=feishu_command)

    run = subparsers.add_parser(
        "run",
        help="Socket Mode, HTTP mode, Feishu, DingTalk or the console, from what is configured",
        description="Socket Mode with SLACK_BOT_TOKEN and SLACK_APP_TOKEN; HTTP mode with "
        "SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET; Feishu's long connection with "
        "FEISHU_APP_ID and FEISHU_APP_SECRET; DingTalk's Stream mode with "
        "DINGTALK_CLIENT_ID and DINGTALK_CLIENT_SECRET; the terminal console when no chat "
        "platform's variable is set (the console options below apply only then).",
    )
    add_console(run)
    run.set_defaults(handler=run_command)


def pick_mode(settings: Settings) -> str:
    """`socket`, `serve` or `console` from the credentials; `ValueError` for a partial set."""
    chosen = choose(settings, PLATFORMS)
    return chosen.mode if chosen is not None else "console"


def run_command(args: argparse.Namespace, settings: Settings) -> int:
    try:
        mode = pick_mode(settings)
    except PartlyConfigured as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        return 2
    if mode == "socket":
        return socket_command(args, settings)
    if mode == "serve":
        return serve_command(args, settings)
    if mode == "dingtalk":
        return dingtalk_command(args, settings)
    if mode == "feishu":
        return feishu_command(args, settings)
    from bot.cli.chat import start_console

    return start_console(args, settings, notice="console_no_platform")


def serve_command(args: argparse.Namespace, settings: Settings) -> int:
    plan = http_channels(settings)
    for refusal in plan.problems:
        print(f"error: {refusal}", file=sys.stderr)
    if plan.problems:
        return 2
    channels = plan.channels
    from bot import compose

    host = getattr(args, "host", None) or settings.web_host
    port = getattr(args, "port", None) or settings.port
    problem = _port_problem(host, port)  # before the model loads: a busy port fails fast
    if problem is None and settings.metrics_port is not None:
        if settings.metrics_port == port:
            problem = f"METRICS_PORT ({port}) must differ from the port serving requests"
        elif found := _port_problem(settings.metrics_host, settings.metrics_port):
            problem = f"METRICS_PORT: {found}"
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    for notice in plan.notices:
        log.warning("%s", notice)
    core = compose.open_core(settings)
    web = compose.web_app(settings, core)
    closers: list[Any] = []
    clock = _clock_in_process(settings, core)
    teller = None
    try:
        # Each configured channel mounts its routes.
        if "slack" in channels:  # POST /slack/events
            compose.mount_slack(web, settings, core, compose.slack(settings, core))
        if "feishu" in channels:  # POST /feishu/events
            compose.mount_feishu(web, settings, core, compose.feishu(settings, core))
        if "dingtalk" in channels:  # POST /dingtalk/events
            dingtalk = compose.dingtalk(settings, core)
            compose.mount_dingtalk(web, settings, core, dingtalk)
            closers.append(dingtalk)
        compose.mount_prefs_site(web, settings, core)  # the preferences page, when configured
        compose.warm_privacy()  # the first form checked waits for no learned layer
        teller = compose.start_expiry_teller(settings, core)  # tells expired approvals
        try:
            server = compose.server(web, settings, host=host, port=port)
        except OSError as exc:
            print(f"error: {_bind_problem(exc, host, port)}", file=sys.stderr)
            return 2
        _announce(core, f"HTTP mode on {host}:{server.port}", chat=bool(channels))
        server.serve_forever()
        return 0
    finally:
        web.close()
        if teller is not None:
            teller.stop()
        if clock is not None:
            clock.stop()
        core.close()
        for closer in closers:
            closer.close()


def socket_command(
    args: argparse.Namespace, settings: Settings, *, stop: threading.Event | None = None
) -> int:
    """Serve Slack over Socket Mode until interrupted (or until `stop` is set)."""
    if not settings.slack_app_token or not settings.slack_bot_token:
        say.error(t("cli_socket_needs_tokens", operator_lang(settings)))
        return 2
    from bot import compose
    from bot.slack.long_connection import serve_socket_mode

    core = compose.open_core(settings)
    clock = _clock_in_process(settings, core)
    teller = None
    try:
        _announce(core, "Socket Mode")
        bolt = compose.slack(settings, core, socket_mode=True)
        compose.warm_privacy()  # the first form checked waits for no learned layer
        teller = compose.start_expiry_teller(settings, core)
        app_token = settings.slack_app_token
        serve_socket_mode(
            bolt,
            app_token=app_token.get_secret_value() if app_token is not None else "",
            stop=stop or _stop_on_signals(),  # SIGTERM ends it, and the teller with it
        )
        return 0
    except KeyboardInterrupt:
        return 0
    finally:
        if teller is not None:
            teller.stop()
        if clock is not None:
            clock.stop()
        core.close()


def dingtalk_command(
    args: argparse.Namespace, settings: Settings, *, stop: threading.Event | None = None
) -> int:
    """Serve DingTalk over Stream mode until interrupted (or until `stop` is set)."""
    if not settings.dingtalk_configured:
        say.error(t("cli_dingtalk_needs_credentials", operator_lang(settings)))
        return 2
    from bot import compose
    from bot.dingtalk.long_connection import stream_for
    from bot.http.server import Server

    core = compose.open_core(settings)
    clock = _clock_in_process(settings, core)
    robot = teller = None
    servers: list[Server] = []
    try:
        robot = compose.dingtalk(settings, core)
        compose.warm_privacy()  # the first form checked waits for no learned layer
        teller = compose.start_expiry_teller(settings, core)
        _announce(core, "DingTalk Stream mode")
        secret = settings.dingtalk_client_secret
        stream = stream_for(
            robot,
            client_id=settings.dingtalk_client_id,
            client_secret=secret.get_secret_value() if secret is not None else "",
            api_url=settings.dingtalk_api_url,
            listeners=core.pools.listeners,
            metrics=core.metrics,
            ping_seconds=settings.dingtalk_stream_ping_seconds,
        )
        health_port = getattr(args, "health_port", None)
        if health_port is not None:  # /healthz (with the stream's state) and /metrics
            web = compose.web_app(settings, core)
            web.add_health("dingtalk_stream", stream.health.snapshot)
            server = compose.server(web, settings, host=settings.web_host, port=health_port)
            servers.append(server.start())
            log.info("health and metrics on port %d", server.port)
        stream.run(stop or _stop_on_signals())
        return 0
    except KeyboardInterrupt:
        return 0
    finally:
        if teller is not None:
            teller.stop()
        if clock is not None:
            clock.stop()
        for server in servers:
            server.stop()
        core.close()  # queued turns are still answered, so the robot closes after
        if robot is not None:
            robot.close()


def feishu_command(
    args: argparse.Namespace, settings: Settings, *, stop: threading.Event | None = None
) -> int:
    """Serve Feishu over its long connection until SIGINT/SIGTERM (or until `stop` is set),
    then disconnect, so no client outlives the process."""
    if not settings.feishu_configured:
        say.error(t("cli_feishu_needs_credentials", operator_lang(settings)))
        return 2
    import signal

    from bot import compose
    from bot.feishu.long_connection import serve_long_connection

    event = stop or threading.Event()
    previous: dict[signal.Signals, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, lambda signum, frame: event.set())
    core = compose.open_core(settings)
    clock = _clock_in_process(settings, core)
    teller = None
    try:
        _announce(core, "Feishu long connection")
        secret, key = settings.feishu_app_secret, settings.feishu_encrypt_key
        token = settings.feishu_verification_token
        robot = compose.feishu(settings, core)
        compose.warm_privacy()  # the first form checked waits for no learned layer
        teller = compose.start_expiry_teller(settings, core)
        serve_long_connection(
            robot,
            app_id=settings.feishu_app_id,
            app_secret=secret.get_secret_value() if secret is not None else "",
            domain=settings.feishu_api_url,
            encrypt_key=key.get_secret_value() if key is not None else "",
            verification_token=token.get_secret_value() if token is not None else "",
            stop=event,
        )
        return 0
    except Exception as exc:  # Feishu refused the app id or secret
        say.error(t("cli_feishu_failed", operator_lang(settings), reason=exc))
        return 1
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if teller is not None:
            teller.stop()
        if clock is not None:
            clock.stop()
        core.close()


def _clock_in_process(settings: Settings, core: Core) -> WarmClock | None:
    """With `SCHEDULER_IN_WEB=true`, the cache-warming clock on a thread of this process
    (instead of a `clock` process); the caller stops it before closing the core."""
    if not settings.scheduler_in_web:
        return None
    from bot.compose.parts import start_warm_clock

    # The sweep only expires, as the `clock` process's does: this process's expiry loop
    # (`bot.flows.expiry`, started whatever SCHEDULER_IN_WEB says) is the one teller, so
    # telling has one owner and one retry schedule, within APPROVAL_TELL_INTERVAL_SECONDS.
    approvals = core.approvals

    def sweep() -> int:
        return len(approvals.expire_due()) if approvals is not None else 0

    return start_warm_clock(settings, core.memory, sweep=sweep)


def _stop_on_signals() -> threading.Event:
    """An event SIGTERM and SIGINT set (when called on the main thread)."""
    import signal

    stop = threading.Event()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda signum, frame: stop.set())
    return stop


def _port_problem(host: str, port: int) -> str | None:
    """Why `host:port` cannot be listened on, or None (binding and closing a socket)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            return _bind_problem(exc, host, port)
    return None


def _bind_problem(exc: OSError, host: str, port: int) -> str:
    """One line on why `host:port` cannot be listened on."""
    where = f"{host}:{port}"
    if exc.errno == errno.EADDRINUSE:
        return f"cannot listen on {where}: the port is already in use (set PORT or --port)"
    if exc.errno == errno.EACCES:
        return f"cannot listen on {where}: permission denied (ports below 1024 need privileges)"
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"cannot listen on {where}: no such address here (set WEB_HOST or --host)"
    return f"cannot listen on {where}: {exc.strerror or exc}"


def _announce(core: Core, mode: str, *, chat: bool = True) -> None:
    if core.agent is None and chat:
        log.warning("no LLM configured (LLM_MODEL): the bot will say it is not set up")
    log.info("travel-bot: %s", mode)


__all__ = [
    "CONSOLE_USER",
    "dingtalk_command",
    "feishu_command",
    "http_channels",
    "pick_mode",
    "register",
]
