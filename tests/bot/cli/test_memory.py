"""`travel-bot memory ...` as an operator uses it (in this process, except on a terminal)."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.bot.cli.conftest import QUIET_ROOMS, Ran, TravelBot
from tests.support.services import free_port


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "MEMORY_DSN": f"sqlite:///{tmp_path}/cli.db", "REDIS_URL": ""}


MemoryCLI = Callable[..., Ran]


@pytest.fixture
def memory_cli(travel_bot: TravelBot) -> MemoryCLI:
    """`travel-bot memory ARGS` on this test's SQLite file, without Redis."""
    return lambda *args: travel_bot("memory", *args)


def test_add_search_show_export_forget(memory_cli: MemoryCLI) -> None:
    added = memory_cli(
        "add", "--user", "T1:U1", "I never take red-eye flights", "出差只坐高铁一等座"
    )
    assert added.status == 0, added.err
    assert added.out.count("added") == 2
    assert "T1:U1 is new" in added.err  # said once, for a namespace never seen

    found = memory_cli(
        "search", "--user", "T1:U1", "--json", "--limit", "1", "按我平时的习惯规划去广州"
    )
    rows = json.loads(found.out)
    assert [r["text"] for r in rows] == ["出差只坐高铁一等座"]

    shown = json.loads(memory_cli("show", "--user", "T1:U1", "--json").out)
    assert "出差只坐高铁一等座" in shown["summary"]
    assert shown["profile"]["rail_class"] == "first_class"

    exported = json.loads(memory_cli("export", "--user", "T1:U1").out)
    assert len(exported["items"]) == 2

    one = memory_cli("forget", "--user", "T1:U1", "--id", rows[0]["id"])
    assert one.out.strip() == "forgot 1 fact"
    rest = memory_cli("forget", "--user", "T1:U1", "--all", "--yes")
    assert rest.out.strip() == "forgot 1 fact"
    assert "nothing remembered for T1:U1" in memory_cli("show", "--user", "T1:U1").out


def test_rejections_are_printed_and_other_users_unaffected(memory_cli: MemoryCLI) -> None:
    out = memory_cli("add", "--user", "T1:U1", "my password is hunter2")
    assert "rejected" in out.out and "password" in out.out
    assert out.status == 3
    assert "nothing remembered" in memory_cli("show", "--user", "T1:U2").out


def test_forget_needs_an_id_or_all_and_all_needs_a_yes_off_a_terminal(
    memory_cli: MemoryCLI,
) -> None:
    assert memory_cli("add", "--user", "T1:U1", "I prefer aisle seats").status == 0
    # Superseded history is not counted as facts: one current fact, one earlier version.
    again = memory_cli("add", "--user", "T1:U1", "Now I prefer window seats")
    assert again.out.startswith("updated") and "is new" not in again.err

    bare = memory_cli("forget", "--user", "T1:U1")
    assert bare.status == 2
    assert "--id" in bare.err and "--all" in bare.err

    unconfirmed = memory_cli("forget", "--user", "T1:U1", "--all")
    assert unconfirmed.status == 2
    assert "--yes" in unconfirmed.err and "nothing was forgotten" in unconfirmed.err

    unknown = memory_cli("forget", "--user", "T1:U1", "--id", "nope")
    assert unknown.status == 1
    assert "no fact nope in the memory of T1:U1" in unknown.err
    assert "window" in memory_cli("show", "--user", "T1:U1").out  # nothing was lost

    done = memory_cli("forget", "--user", "T1:U1", "--all", "--yes")
    assert done.status == 0
    assert done.out.strip() == "forgot 1 fact and 1 earlier version it replaced"
    assert json.loads(memory_cli("export", "--user", "T1:U1").out)["items"] == []


def _on_a_terminal(tmp_path: Path, answer: str, *args: str) -> tuple[int, str]:
    """Run `travel-bot memory ...` with a pseudo-terminal as its input, answering once."""
    main, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "memory", *args],
        stdin=follower,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(tmp_path),
        cwd=tmp_path,
        text=True,
    )
    os.close(follower)
    try:
        os.write(main, answer.encode() + b"\n")
        out, err = process.communicate(timeout=60)
    finally:
        os.close(main)
    return process.returncode, out + err


def test_forget_all_asks_on_a_terminal(tmp_path: Path, memory_cli: MemoryCLI) -> None:
    assert memory_cli("add", "--user", "T1:U1", "I never take red-eye flights").status == 0
    status, output = _on_a_terminal(tmp_path, "n", "forget", "--user", "T1:U1", "--all")
    assert status == 1
    assert "Forget all 1 fact(s) remembered for T1:U1" in output
    assert "nothing was forgotten" in output
    assert "red-eye" in memory_cli("show", "--user", "T1:U1").out

    status, output = _on_a_terminal(tmp_path, "y", "forget", "--user", "T1:U1", "--all")
    assert status == 0 and "forgot 1 fact" in output
    assert "nothing remembered" in memory_cli("show", "--user", "T1:U1").out


def test_a_namespace_typo_is_said_never_silently_empty(memory_cli: MemoryCLI) -> None:
    assert memory_cli("add", "--user", "T1:U1", "I never take red-eye flights").status == 0
    for verb, extra in (("show", ()), ("search", ("flights",)), ("export", ())):
        out = memory_cli(verb, "--user", "T1:U7", *extra)
        assert out.status == 0
        said = out.out + out.err
        assert "nothing remembered for T1:U7 (did you mean T1:U1?)" in said, verb
    gone = memory_cli("forget", "--user", "T1:U7", "--all", "--yes")
    assert "nothing remembered for T1:U7" in gone.out + gone.err
    # A namespace of the wrong shape is refused before anything is opened.
    bad = memory_cli("add", "--user", "T1U1", "I like aisle seats")
    assert bad.status == 2
    assert "'T1U1' is not a namespace" in bad.err
    assert "red-eye" in memory_cli("show", "--user", "T1:U1").out


def test_search_refuses_an_empty_query_and_a_limit_out_of_range(memory_cli: MemoryCLI) -> None:
    refusals = {
        ("",): "empty",
        (" ",): "empty",
        ("--limit", "0", "seats"): "from 1 to 50",
        ("--limit", "-1", "seats"): "from 1 to 50",
        ("--limit", "51", "seats"): "from 1 to 50",
    }
    for args, said in refusals.items():
        out = memory_cli("search", "--user", "T1:U1", *args)
        assert out.status == 2, args
        assert said in out.err and "Traceback" not in out.err, args


def test_show_reads_as_the_page_does_profile_included(travel_bot: TravelBot) -> None:
    facts = ("I never take red-eye flights", "出差只坐高铁一等座", "In Japan I prefer window seats")
    assert travel_bot("memory", "add", "--user", "T1:U1", *facts).status == 0
    shown = travel_bot("memory", "show", "--user", "T1:U1")
    assert shown.status == 0
    lines = shown.out.splitlines()
    assert lines[0].startswith("How I sum up your preferences: ")
    assert (
        lines[1]
        == "Your preferences now: Takes first-class seats on trains; avoids red-eye flights."
    )
    assert lines[2] == "Only for some trips (say so in chat to change them): Japan: Window"
    assert lines[3] == "What I remember (3):"
    assert len(lines) == 7 and all(line.startswith("  - ") for line in lines[4:])
    assert "(imported from the command line · " in lines[4] and "only for: Japan" in shown.out
    # In Chinese: by --lang, or by DEFAULT_LANGUAGE; the facts keep their own words.
    for chinese in (
        travel_bot("memory", "show", "--user", "T1:U1", "--lang", "zh"),
        travel_bot("memory", "show", "--user", "T1:U1", DEFAULT_LANGUAGE="zh"),
    ):
        assert "你现在的偏好：高铁坐一等座；避开红眼航班。" in chinese.out
        assert "我记住的内容（3 条）：" in chinese.out and "仅限：日本" in chinese.out
        assert "I never take red-eye flights" in chinese.out
        assert (
            "(由命令行导入 · " in chinese.out and "import" not in chinese.out
        )  # not an English word
    assert "rail_class" not in shown.out and "first_class" not in shown.out


def test_forget_takes_the_id_as_show_prints_it(memory_cli: MemoryCLI) -> None:
    assert memory_cli("add", "--user", "T1:U1", "I never take red-eye flights").status == 0
    assert memory_cli("add", "--user", "T1:U1", "I like quiet rooms").status == 0
    lines = memory_cli("show", "--user", "T1:U1").out.splitlines()
    line = next(x for x in lines if x.startswith("  - I like quiet rooms"))
    short = line.rpartition("[")[2].rstrip("]")
    [full] = [
        i["id"]
        for i in json.loads(memory_cli("export", "--user", "T1:U1").out)["items"]
        if i["text"] == "I like quiet rooms"
    ]
    assert full.startswith(short) and len(short) == 8
    done = memory_cli("forget", "--user", "T1:U1", "--id", short)
    assert done.status == 0 and done.out.strip() == "forgot 1 fact"
    assert "quiet" not in memory_cli("show", "--user", "T1:U1").out


def test_an_ambiguous_id_prefix_forgets_nothing(memory_cli: MemoryCLI) -> None:
    assert memory_cli("add", "--user", "T1:U1", *QUIET_ROOMS).status == 0  # 17 ids, 16 digits
    ids = [i["id"] for i in json.loads(memory_cli("export", "--user", "T1:U1").out)["items"]]
    first = next(c for c in "0123456789abcdef" if sum(i.startswith(c) for i in ids) > 1)
    done = memory_cli("forget", "--user", "T1:U1", "--id", first)
    assert done.status == 1
    assert "have ids beginning" in done.err and "nothing was forgotten" in done.err
    assert len(json.loads(memory_cli("export", "--user", "T1:U1").out)["items"]) == 17


def test_a_change_redis_was_not_told_of_is_said_with_what_it_means(travel_bot: TravelBot) -> None:
    """A command ends before Redis is back: the operator learns the change is saved and
    the assistant's cached copy is dropped once Redis answers (kept in the store for
    that; tests/bot/cli/test_memory_outage.py shows the assistant then uses the change)."""
    assert travel_bot("memory", "add", "--user", "T1:U1", "I prefer aisle seats").status == 0
    closed = f"redis://127.0.0.1:{free_port()}/0"
    note = (
        "note: Redis did not answer; the assistant's cached copy of the preferences of "
        "T1:U1 is dropped as soon as Redis answers again (the change is saved)"
    )
    for argv in (
        ("add", "--user", "T1:U1", "I never take red-eye flights"),
        ("forget", "--user", "T1:U1", "--all", "--yes"),
    ):
        ran = travel_bot("memory", *argv, REDIS_URL=closed)
        assert ran.status == 0 and note in ran.err and "warning: Redis did not" not in ran.err
    shown = travel_bot("memory", "show", "--user", "T1:U1", REDIS_URL=closed)
    assert shown.status == 0 and "note: Redis" not in shown.err  # a read leaves nothing stale
