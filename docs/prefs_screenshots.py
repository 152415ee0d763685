"""Screenshots of the preferences page, in English and Chinese, for docs/preferences-page.md.

    .venv/bin/python docs/prefs_screenshots.py [--out docs] [--width 390]

Serves the real page (memory on a temporary SQLite file, no Redis, no chat platform),
remembers a few preferences for two people (one writes English, one Chinese), opens each
one's link in Debian's headless Chromium (`apt-get install chromium fonts-wqy-microhei`,
the fonts for Chinese; no browser is ever downloaded), and saves the whole page
(`prefs-page-en.png`, `prefs-page-zh.png`) and what a phone shows first
(`prefs-phone-en.png`, `prefs-phone-zh.png`, 390 pixels wide). The whole English page is
taken after a save, so it shows the result banner.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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
PEOPLE = {
    "en": (
        "DEMO:UENGLISH",
        [
            "I never take red-eye flights",
            "I prefer aisle seats",
            "On trains I like a window seat",
            "Hotels near the office, please",
        ],
    ),
    "zh": (
        "DEMO:UCHINESE",
        ["出差只坐高铁一等座", "不坐红眼航班", "酒店要含早餐", "喜欢安静的房间，远离电梯"],
    ),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs"), help="folder for the PNGs")
    parser.add_argument("--width", type=int, default=820, help="width of the full-page shots")
    args = parser.parse_args()
    if shutil.which(CHROMIUM) is None:
        print(f"error: {CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright
    from pydantic import SecretStr

    from bot import compose
    from bot.settings import Settings

    out = Path(args.out)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            memory_dsn=f"sqlite:///{tmp}/memory.db",
            redis_url="",
            llm_model="",
            llm_fast_model="",
            prefs_link_secret=SecretStr("screenshots-only-secret-000"),
            public_url="http://placeholder",
        )
        core = compose.open_core(settings)
        web = compose.web_app(settings, core)
        compose.mount_prefs_site(web, settings, core)
        server = compose.server(web, settings).start()
        settings.public_url = server.url
        try:
            for namespace, facts in PEOPLE.values():
                core.memory.record(namespace, facts)
            with sync_playwright() as p:
                for lang, (namespace, _) in PEOPLE.items():
                    for name, width in (
                        (f"prefs-page-{lang}", args.width),
                        (f"prefs-phone-{lang}", 390),
                    ):
                        path = out / f"{name}.png"
                        _shoot(p, settings, namespace, lang, width, path, full=width != 390)
                        print(path)
        finally:
            server.stop()
            core.close()
    return 0


def _shoot(
    p: Any, settings: Any, namespace: str, lang: str, width: int, path: Path, *, full: bool
) -> None:
    from bot.compose.links import preferences_url

    link = preferences_url(settings, namespace, lang=lang)  # type: ignore[arg-type]
    assert link is not None
    with tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            headless=True,
            args=FLAGS,
            viewport={"width": width, "height": 844},
            locale="zh-CN" if lang == "zh" else "en-US",
        )
        page = context.new_page()
        page.goto(link)
        if lang == "en" and full:  # show a save's result too
            page.check("#slot-cabin_class-economy")
            page.click("button.primary")
            page.wait_for_selector("#result")
        if full:  # the sticky Save bar then sits where it belongs, at the form's end
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.screenshot(path=str(path), full_page=full)
        context.close()


if __name__ == "__main__":
    raise SystemExit(main())
