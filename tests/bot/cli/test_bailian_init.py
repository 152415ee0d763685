"""`travel-bot memory bailian-init`: our profile schema in Bailian, and what to set."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.bailian_api import FakeBailian


def _run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "memory", "bailian-init"],
        capture_output=True,
        text=True,
        env={**os.environ, "REDIS_URL": "", **env},
        cwd=tmp_path,
        timeout=60,
    )


def test_creates_the_schema_once_and_says_what_to_set(tmp_path: Path, bailian: FakeBailian) -> None:
    env = {
        "MEMORY_DSN": "bailian://default",
        "DASHSCOPE_API_KEY": bailian.api_key,
        "BAILIAN_BASE_URL": bailian.base_url,
    }
    first = _run(tmp_path, **env)
    assert first.returncode == 0, first.stderr
    [schema_id] = bailian.schemas
    assert "created profile schema travel-prefs-" in first.stdout
    assert f"Set BAILIAN_PROFILE_SCHEMA_ID={schema_id}" in first.stdout
    again = _run(tmp_path, **env, BAILIAN_PROFILE_SCHEMA_ID=schema_id)
    assert again.returncode == 0, again.stderr
    assert "found profile schema" in again.stdout and "already set" in again.stdout
    assert len(bailian.schemas) == 1


def test_without_bailian_settings_it_says_what_is_missing(
    tmp_path: Path, bailian: FakeBailian
) -> None:
    sql = _run(tmp_path, MEMORY_DSN=f"sqlite:///{tmp_path}/m.db")
    assert sql.returncode == 2 and "MEMORY_DSN=bailian://" in sql.stderr
    keyless = _run(tmp_path, MEMORY_DSN="bailian://default", DASHSCOPE_API_KEY="")
    assert keyless.returncode == 2 and "DASHSCOPE_API_KEY" in keyless.stderr
    wrong = _run(
        tmp_path,
        MEMORY_DSN="bailian://default",
        DASHSCOPE_API_KEY="sk-wrong",
        BAILIAN_BASE_URL=bailian.base_url,
    )
    assert wrong.returncode == 1 and "401" in wrong.stderr
