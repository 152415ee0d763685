"""`travel-bot memory ...` as an operator uses it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMORY_DSN": f"sqlite:///{tmp_path}/cli.db", "REDIS_URL": ""}
    return subprocess.run(
        [sys.executable, "-m", "bot", "memory", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )


def test_add_search_show_export_forget(tmp_path: Path) -> None:
    added = _run(
        tmp_path, "add", "--user", "T1:U1", "I never take red-eye flights", "出差只坐高铁一等座"
    )
    assert added.returncode == 0, added.stderr
    assert added.stdout.count("added") == 2

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
    assert "forgot 1" in one.stdout
    rest = _run(tmp_path, "forget", "--user", "T1:U1")
    assert "forgot 1" in rest.stdout
    assert "nothing remembered" in _run(tmp_path, "show", "--user", "T1:U1").stdout


def test_rejections_are_printed_and_other_users_unaffected(tmp_path: Path) -> None:
    out = _run(tmp_path, "add", "--user", "T1:U1", "my password is hunter2")
    assert "rejected" in out.stdout and "password" in out.stdout
    assert out.returncode == 3
    assert "nothing remembered" in _run(tmp_path, "show", "--user", "T1:U2").stdout
