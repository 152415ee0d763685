"""Debian's headless Chromium, driven by Playwright, for the browser tests.

No browser is ever downloaded: Playwright drives `/usr/bin/chromium` (`.ci/run` installs
Debian's `chromium` package when it is missing). Each context gets a fresh profile
directory and the flags that keep Chromium from reaching out anywhere.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def require_chromium() -> None:
    """Skip, saying why, when Debian's Chromium is not installed."""
    if shutil.which(CHROMIUM) is None:
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium; .ci/run does)")


@contextmanager
def chromium(profile: Path, **options: Any) -> Iterator[Any]:
    """A fresh browser context (Playwright `BrowserContext`) on a new profile directory."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    options.setdefault("viewport", {"width": 390, "height": 844})
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=FLAGS, **options
        )
        context.set_default_timeout(30_000)
        try:
            yield context
        finally:
            context.close()


__all__ = ["CHROMIUM", "FLAGS", "chromium", "require_chromium"]
