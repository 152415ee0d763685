"""`travel-bot memory ...` as an operator uses it."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "MEMORY_DSN": f"sqlite:///{tmp_path}/cli.db", "REDIS_URL": ""}


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "memory", *args],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )


def test_add_search_show_export_forget(tmp_path: Path) -> None:
    added = _run(
        tmp_path, "add", "--user", "T1:U1", "I never take red-eye flights", "出差只坐高铁一等座"
    )
    assert added.returncode == 0, added.stderr
    assert added.stdout.count("added") == 2
    assert "T1:U1 is new" in added.stderr  # said once, for a namespace never seen

    found = _run(
        tmp_path, "search", "--user", "T1:U1", "--json", "--limit", "1", "按我平时的习惯规划去广州"
    )
    rows = json.loads(found.stdout)
    assert [r["text"] for r in rows] == ["出差只坐高铁一等座"]

    shown = json.loads(_run(tmp_path, "show", "--user", "T1:U1", "--json").stdout)
    assert "出差只坐高铁一等座" in shown["summary"]
    assert shown["profile"]["rail_class"] == "first_class"

    exported = json.loads(_run(tmp_path, "export", "--user", "T1:U1").stdout)
    assert len(exported["items"]) == 2

    one = _run(tmp_path, "forget", "--user", "T1:U1", "--id", rows[0]["id"])
    assert one.stdout.strip() == "forgot 1 fact"
    rest = _run(tmp_path, "forget", "--user", "T1:U1", "--all", "--yes")
    assert rest.stdout.strip() == "forgot 1 fact(s)"
    assert "nothing remembered for T1:U1" in _run(tmp_path, "show", "--user", "T1:U1").stdout


def test_rejections_are_printed_and_other_users_unaffected(tmp_path: Path) -> None:
    out = _run(tmp_path, "add", "--user", "T1:U1", "my password is hunter2")
    assert "rejected" in out.stdout and "password" in out.stdout
    assert out.returncode == 3
    assert "nothing remembered" in _run(tmp_path, "show", "--user", "T1:U2").stdout


def test_forget_needs_an_id_or_all_and_all_needs_a_yes_off_a_terminal(tmp_path: Path) -> None:
    assert _run(tmp_path, "add", "--user", "T1:U1", "I prefer aisle seats").returncode == 0
    # Superseded history is not counted as facts: one current fact, one earlier version.
    again = _run(tmp_path, "add", "--user", "T1:U1", "Now I prefer window seats")
    assert again.stdout.startswith("updated") and "is new" not in again.stderr

    bare = _run(tmp_path, "forget", "--user", "T1:U1")
    assert bare.returncode == 2
    assert "--id" in bare.stderr and "--all" in bare.stderr

    unconfirmed = _run(tmp_path, "forget", "--user", "T1:U1", "--all")
    assert unconfirmed.returncode == 2
    assert "--yes" in unconfirmed.stderr and "nothing was forgotten" in unconfirmed.stderr

    unknown = _run(tmp_path, "forget", "--user", "T1:U1", "--id", "nope")
    assert unknown.returncode == 1
    assert "no fact nope in the memory of T1:U1" in unknown.stderr
    assert "window" in _run(tmp_path, "show", "--user", "T1:U1").stdout  # nothing was lost

    done = _run(tmp_path, "forget", "--user", "T1:U1", "--all", "--yes")
    assert done.returncode == 0
    assert done.stdout.strip() == "forgot 1 fact(s) and 1 earlier version(s) they replaced"
    assert json.loads(_run(tmp_path, "export", "--user", "T1:U1").stdout)["items"] == []


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


def test_forget_all_asks_on_a_terminal(tmp_path: Path) -> None:
    assert _run(tmp_path, "add", "--user", "T1:U1", "I never take red-eye flights").returncode == 0
    status, output = _on_a_terminal(tmp_path, "n", "forget", "--user", "T1:U1", "--all")
    assert status == 1
    assert "Forget all 1 fact(s) remembered for T1:U1" in output
    assert "nothing was forgotten" in output
    assert "red-eye" in _run(tmp_path, "show", "--user", "T1:U1").stdout

    status, output = _on_a_terminal(tmp_path, "y", "forget", "--user", "T1:U1", "--all")
    assert status == 0 and "forgot 1 fact(s)" in output
    assert "nothing remembered" in _run(tmp_path, "show", "--user", "T1:U1").stdout


def test_a_namespace_typo_is_said_never_silently_empty(tmp_path: Path) -> None:
    assert _run(tmp_path, "add", "--user", "T1:U1", "I never take red-eye flights").returncode == 0
    for verb, extra in (("show", ()), ("search", ("flights",)), ("export", ())):
        out = _run(tmp_path, verb, "--user", "T1:U7", *extra)
        assert out.returncode == 0
        said = out.stdout + out.stderr
        assert "nothing remembered for T1:U7 (did you mean T1:U1?)" in said, verb
    gone = _run(tmp_path, "forget", "--user", "T1:U7", "--all", "--yes")
    assert "nothing remembered for T1:U7" in gone.stdout + gone.stderr
    # A namespace of the wrong shape is refused before anything is opened.
    bad = _run(tmp_path, "add", "--user", "T1U1", "I like aisle seats")
    assert bad.returncode == 2
    assert "'T1U1' is not a namespace" in bad.stderr
    assert "red-eye" in _run(tmp_path, "show", "--user", "T1:U1").stdout


def test_search_refuses_an_empty_query_and_a_limit_out_of_range(tmp_path: Path) -> None:
    refusals = {
        ("",): "empty",
        (" ",): "empty",
        ("--limit", "0", "seats"): "from 1 to 50",
        ("--limit", "-1", "seats"): "from 1 to 50",
        ("--limit", "51", "seats"): "from 1 to 50",
    }
    for args, said in refusals.items():
        out = _run(tmp_path, "search", "--user", "T1:U1", *args)
        assert out.returncode == 2, args
        assert said in out.stderr and "Traceback" not in out.stderr, args
