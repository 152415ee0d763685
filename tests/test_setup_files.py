"""The set-up files agree with the code: the settings tables (docs/settings.md), `.env.example`,
`compose.yaml` and the `Dockerfile` name only settings that exist, every setting is
documented, and what they start points at real files, verbs and ports.

There is no Docker engine where the tests run, so the compose file and the Dockerfile
are parsed and checked, not built; the SQL the compose PostgreSQL runs is run here, on the
test PostgreSQL, and the Makefile's install line is run with pip.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from bot.cli import build_parser
from bot.cli.config import ConfigError, load_settings
from bot.settings import Settings
from tests.support.services import DEFAULT_PG_DSN, DEFAULT_REDIS_URL

ROOT = Path(__file__).resolve().parents[1]
FIELDS = {name.upper() for name in Settings.model_fields}
TABLE_HEADER = "| variable | default | meaning |"


def _readme_variables() -> list[str]:
    """Every variable named in the first cell of a settings table's rows (docs/settings.md)."""
    found: list[str] = []
    in_table = False
    for line in (ROOT / "docs" / "settings.md").read_text(encoding="utf-8").splitlines():
        if line.strip() == TABLE_HEADER:
            in_table = True
        elif in_table and line.startswith("|"):
            found += re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split("|")[1])
        else:
            in_table = False
    return found


def _env_example() -> dict[str, str]:
    """`NAME=value` of every setting line of `.env.example`, commented out or not."""
    values: dict[str, str] = {}
    for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"#? ?([A-Z][A-Z0-9_]+)=(.*)", line.strip())
        if match:
            name, value = match.groups()
            assert name not in values, f"{name} is listed twice in .env.example"
            values[name] = value
    return values


def _accepts(values: dict[str, str]) -> Settings:
    """Settings from exactly `values` (no environment, no .env); fails with the reason."""
    try:
        return load_settings(_env_file=None, **{k.lower(): v for k, v in values.items()})
    except ConfigError as exc:
        pytest.fail(str(exc))


def _verbs() -> set[str]:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "verb")
    return set(subparsers.choices or ())


# -- settings: docs/settings.md tables, .env.example, Settings ------------------------------


def test_every_setting_is_documented_in_the_readme_and_nothing_else_is() -> None:
    documented = _readme_variables()
    assert len(documented) == len(set(documented)), "a variable is in two rows of docs/settings.md"
    assert sorted(FIELDS - set(documented)) == [], "settings missing from docs/settings.md"
    assert sorted(set(documented) - FIELDS) == [], "docs/settings.md rows that are no setting"


def test_env_example_lists_every_setting_with_its_default() -> None:
    listed = _env_example()
    assert sorted(FIELDS - set(listed)) == [], "settings missing from .env.example"
    assert sorted(set(listed) - FIELDS) == [], ".env.example lines that are no setting"
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert not re.search(r"^[A-Z]", text, re.MULTILINE), "every setting stays commented out"
    defaults = Settings.model_construct()  # the declared defaults, nothing read
    for name, value in listed.items():
        if value == "":
            assert getattr(defaults, name.lower()) in (None, ""), f"{name}: the default is set"
            continue
        assert getattr(_accepts({name: value}), name.lower()) == getattr(defaults, name.lower()), (
            f"{name}={value} in .env.example is not the default"
        )


def test_the_readme_and_env_example_name_the_same_settings() -> None:
    assert set(_readme_variables()) == set(_env_example())


# -- compose.yaml ----------------------------------------------------------------------------


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    return data


def _published(service: dict[str, Any]) -> set[tuple[str, int, int]]:
    """`(host address, host port, container port)` of each published port."""
    ports = set()
    for spec in service.get("ports", []):
        host, host_port, container = str(spec).rsplit(":", 2)
        ports.add((host, int(host_port), int(container)))
    return ports


def test_compose_starts_postgresql_and_redis_where_the_tests_look() -> None:
    services = _compose()["services"]
    pg, redis = services["postgres"], services["redis"]
    assert "profiles" not in pg and "profiles" not in redis  # `docker compose up` starts both
    # Images pinned to a minor version at least: `docker compose up` a year on is the same.
    assert re.fullmatch(r"postgres:16\.\d+", pg["image"])
    assert re.fullmatch(r"redis:7\.\d+(\.\d+)?", redis["image"])

    expected = urlsplit(DEFAULT_PG_DSN)
    assert (expected.hostname, expected.port, 5432) in _published(pg)
    assert pg["environment"]["POSTGRES_USER"] == expected.username
    assert pg["environment"]["POSTGRES_HOST_AUTH_METHOD"] == "trust"  # as the tests connect
    assert pg["environment"]["POSTGRES_DB"] == expected.path.lstrip("/")
    redis_url = urlsplit(DEFAULT_REDIS_URL)
    assert (redis_url.hostname, redis_url.port, 6379) in _published(redis)

    # Health checks use a command their image has, so `depends_on` can wait for them.
    assert pg["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]


def test_compose_mounts_only_files_that_exist() -> None:
    for name, service in _compose()["services"].items():
        for volume in service.get("volumes", []):
            source = str(volume).split(":")[0]
            if source.startswith("."):
                assert (ROOT / source).is_file(), f"{name} mounts {source}, which is missing"


def test_the_compose_bot_is_built_here_and_set_up_with_real_settings() -> None:
    compose = _compose()
    services = compose["services"]
    bot = services["bot"]
    assert bot["profiles"] == ["bot"]  # only on request: it needs a chat platform or the page
    assert bot["build"] == "." and (ROOT / "Dockerfile").is_file()
    assert bot["command"] == ["travel-bot", "serve"]
    assert bot["env_file"] == [{"path": ".env", "required": False}]

    environment = {name: str(value) for name, value in bot["environment"].items()}
    assert set(environment) <= FIELDS, "compose sets a variable that is no setting"
    settings = _accepts(environment)
    # It talks to the compose services, which are ready before it starts.
    assert urlsplit(settings.memory_dsn).hostname == "postgres"
    assert urlsplit(settings.redis_url).hostname == "redis"
    assert bot["depends_on"] == {
        "travel-database": {"condition": "service_completed_successfully"},
        "redis": {"condition": "service_healthy"},
    }
    assert (("127.0.0.1", settings.port, settings.port)) in _published(bot)


def test_the_compose_clock_warms_the_cache_beside_the_bot() -> None:
    """The Procfile's two processes, both: `serve` and `clock` (not SCHEDULER_IN_WEB)."""
    services = _compose()["services"]
    bot, clock = services["bot"], services["clock"]
    procfile = dict(
        line.split(": ", 1)
        for line in (ROOT / "Procfile").read_text(encoding="utf-8").splitlines()
        if line.strip()
    )
    assert " ".join(bot["command"]) == procfile["web"]
    assert " ".join(clock["command"]) == procfile["clock"]
    assert clock["command"][1] in _verbs()
    for same in ("profiles", "build", "image", "env_file", "depends_on", "restart"):
        assert clock[same] == bot[same], same
    # Same memory and Redis as the bot, so it warms the cache the bot reads.
    for name in ("MEMORY_DSN", "REDIS_URL"):
        assert clock["environment"][name] == bot["environment"][name]
    assert _accepts({k: str(v) for k, v in clock["environment"].items()}).scheduler_in_web is False
    assert clock["healthcheck"] == {"disable": True}  # it serves no /healthz
    assert "ports" not in clock


def test_the_bot_and_clock_restart_so_a_bare_env_is_visible() -> None:
    """A bare .env makes `serve` exit 2; restarting, it shows in `docker compose ps`
    ("Restarting (2)") instead of vanishing from it, and the compose file says so."""
    services = _compose()["services"]
    for name in ("bot", "clock"):
        assert services[name]["restart"] == "unless-stopped", name
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert "Restarting (2)" in text and "docker compose logs bot" in text


def test_compose_says_which_version_env_file_required_needs() -> None:
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert "Docker Compose 2.24.0 or later" in text
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Docker Compose 2.24.0 or later" in " ".join(readme.split())


def test_the_travel_database_is_created_on_a_new_and_an_existing_volume() -> None:
    services = _compose()["services"]
    bot_database = urlsplit(services["bot"]["environment"]["MEMORY_DSN"]).path.lstrip("/")
    script = "./compose/postgres-init.sql"
    # On an empty volume, the image runs it; before the bot starts, the one-shot service.
    assert (
        f"{script}:/docker-entrypoint-initdb.d/10-travel.sql:ro" in services["postgres"]["volumes"]
    )
    creator = services["travel-database"]
    assert creator["image"] == services["postgres"]["image"]
    assert creator["profiles"] == ["bot"] and "restart" not in creator
    mounted = next(v for v in creator["volumes"] if v.startswith(f"{script}:"))
    assert creator["command"][:2] == ["psql", "-h"] and creator["command"][2] == "postgres"
    assert creator["command"][-2:] == ["-f", mounted.split(":")[1]]
    assert creator["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    sql = (ROOT / "compose" / "postgres-init.sql").read_text(encoding="utf-8")
    assert f"\\set database {bot_database}\n" in sql  # the database the bot uses


def test_the_database_script_creates_once_and_runs_again_quietly() -> None:
    """The script itself, run twice with psql on the test PostgreSQL under a name of its own."""
    expected = urlsplit(DEFAULT_PG_DSN)
    name = f"travel_i26_{uuid.uuid4().hex[:8]}"
    psql = [
        "psql", "-h", str(expected.hostname), "-p", str(expected.port), "-U",
        str(expected.username), "-d", expected.path.lstrip("/"), "-v", "ON_ERROR_STOP=1",
    ]  # fmt: skip
    script = str(ROOT / "compose" / "postgres-init.sql")
    try:
        for _ in range(2):  # a new volume, then the one-shot service on the same volume
            done = subprocess.run(
                [*psql, "-v", f"database={name}", "-f", script],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert done.returncode == 0, done.stderr
        listed = subprocess.run(
            [*psql, "-tAc", f"SELECT datname FROM pg_database WHERE datname = '{name}'"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert listed.stdout.strip() == name
    finally:
        subprocess.run([*psql, "-c", f"DROP DATABASE IF EXISTS {name}"], timeout=60)


# -- Dockerfile ------------------------------------------------------------------------------


def _dockerfile() -> list[tuple[str, str]]:
    """`(INSTRUCTION, arguments)` in order, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n\s*", " ", "\n".join(lines))
    instructions = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            instructions.append((word.upper(), rest.strip()))
    return instructions


def _one(instruction: str) -> str:
    [found] = [rest for word, rest in _dockerfile() if word == instruction]
    return found


def test_the_dockerfile_copies_what_the_package_needs_and_nothing_ignored() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    image = _one("FROM")
    wanted = project["project"]["requires-python"].removeprefix(">=")
    # Pinned to a patch release of that Python, slim.
    assert re.fullmatch(rf"python:{re.escape(wanted)}\.\d+-slim", image), image

    ignored = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    copied = set()
    for word, rest in _dockerfile():
        if word == "COPY":
            *sources, _ = rest.split()
            for source in sources:
                assert (ROOT / source).exists(), f"COPY {source}: no such file"
                assert source not in ignored, f"COPY {source}, but .dockerignore drops it"
                copied.add(source)
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    assert packages | {"pyproject.toml", project["project"]["readme"]} <= copied


def test_the_dockerfile_sets_real_settings_and_runs_a_real_verb() -> None:
    environment: dict[str, str] = {}
    for word, rest in _dockerfile():
        if word == "ENV":
            environment.update(part.split("=", 1) for part in shlex.split(rest))  # type: ignore[misc]
    own = {k: v for k, v in environment.items() if not k.startswith(("PYTHON", "PIP_"))}
    assert set(own) <= FIELDS, "the Dockerfile sets a variable that is no setting"
    settings = _accepts(own)
    assert _one("EXPOSE") == str(settings.port)

    command = _one("CMD")
    assert command.startswith("[")  # exec form: the process gets SIGTERM itself
    program, verb = yaml.safe_load(command)
    assert program == "travel-bot" and verb in _verbs()
    assert "/healthz" in _one("HEALTHCHECK")  # liveness, served by bot.http.app


def test_the_readme_set_up_commands_exist() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in ("run", "test"):
        assert re.search(rf"^{target}:", makefile, re.MULTILINE)
        assert f"make {target}" in readme
    assert "docker compose up -d" in readme and "bash .ci/run" in readme


def test_the_editable_install_shows_no_warning_box(tmp_path: Path) -> None:
    """`make run` installs the project; setuptools' "Editable installation" box must not
    show despite --quiet. The Makefile's install line, run with pip (no dependencies)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    [line] = [x.strip() for x in makefile.splitlines() if "pip install --quiet -e" in x]
    name = re.match(r"\$\((\w+)\) ", line)
    assert name, "the install line starts with the variable that quiets it"
    quiet = re.search(rf"^{name.group(1)} := (.*)$", makefile, re.MULTILINE)
    assert quiet
    settings = dict(part.split("=", 1) for part in shlex.split(quiet.group(1)))
    # Into a folder of its own: --ignore-installed leaves this environment's install alone.
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--ignore-installed"]

    def install(env: dict[str, str], prefix: str) -> str:
        done = subprocess.run(
            [*pip, "--prefix", str(tmp_path / prefix), "-e", str(ROOT)],
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout + done.stderr

    assert "Editable installation" in install({}, "plain")  # the box this is about
    assert "Editable installation" not in install(settings, "quiet")
