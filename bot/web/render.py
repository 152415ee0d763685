"""The preferences page in HTML: templates (`templates/`, package data) rendered with Jinja2.

Autoescaping is on for every template and cannot be turned off per value: remembered
facts, the summary and anything a person typed are untrusted, and render as text.
Strings come from `bot.messages` in the person's language (`t` inside a template). The
stylesheet and script (`static/`) are served from memory with a content hash in their
URLs, so a browser may cache them for long and still never keeps an old one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from bot.messages import t
from bot.payloads import parse_json
from bot.prefs.form import decode_base
from bot.prefs.remembered import fact_view
from bot.web.state import State, slot_value
from memory.lang import Lang
from memory.profile import Value

LANGUAGES = (("en", "English", "en"), ("zh", "中文", "zh-CN"))
HTML_LANG = {"en": "en", "zh": "zh-CN"}
STATIC_FILES = {
    "prefs.css": "text/css; charset=utf-8",
    "prefs.js": "text/javascript; charset=utf-8",
    "icon.svg": "image/svg+xml",
}


@dataclass(frozen=True)
class Asset:
    name: str
    body: bytes
    content_type: str

    @property
    def version(self) -> str:
        return hashlib.sha256(self.body).hexdigest()[:12]


@dataclass(frozen=True)
class Result:
    """What the page says above the form after an action."""

    kind: str  # "saved", "same", "forgot" or "error"
    lines: Sequence[str]
    errors: Sequence[tuple[str, str, str]] = ()  # (field id, field label, message)


def load_assets() -> dict[str, Asset]:
    folder = resources.files("bot.web").joinpath("static")
    return {
        name: Asset(name, folder.joinpath(name).read_bytes(), kind)
        for name, kind in STATIC_FILES.items()
    }


class Renderer:
    def __init__(self, *, base_path: str, assets: Mapping[str, Asset]) -> None:
        self.base = base_path
        self._env = Environment(
            loader=PackageLoader("bot.web", "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self._static = {
            name.rpartition(".")[2]: f"{base_path}/prefs/static/{name}?v={asset.version}"
            for name, asset in assets.items()
        }  # by kind: css, js, svg

    def page(
        self,
        state: State,
        *,
        csrf: str,
        result: Result | None = None,
        errors: Mapping[str, str] | None = None,
        note: str = "",
        trips: Sequence[str] = (),
    ) -> str:
        lang = state.form.lang
        facts = [_fact(item, lang) for item in state.items]
        return self._render(
            "page.html",
            lang,
            csrf=csrf,
            form=state.form,
            errors=dict(errors or {}),
            note=note,
            summary=state.summary,
            facts=facts,
            result=result,
            base_json=base_json(state.base),
            scoped_sep="；" if lang == "zh" else "; ",
            colon="：" if lang == "zh" else ": ",
            languages=LANGUAGES,
            trips=list(trips),
        )

    def notice(self, lang: Lang, heading_key: str, *line_keys: str) -> str:
        lines = [t(key, lang) for key in line_keys]
        return self._render("notice.html", lang, heading=t(heading_key, lang), lines=lines)

    def continue_page(self, lang: Lang, target: str) -> str:
        """A page that opens `target` at once (a same-site navigation, unlike a redirect)."""
        return self._render("continue.html", lang, target=target)

    def _render(self, name: str, lang: Lang, **context: Any) -> str:
        context.setdefault("csrf", "")

        def translate(key: str, **values: object) -> str:
            return t(key, lang, **values)

        return self._env.get_template(name).render(
            t=translate,
            lang=lang,
            html_lang=HTML_LANG[lang],
            base=self.base,
            static=self._static,
            **context,
        )


def base_json(base: Mapping[str, Value]) -> str:
    """The profile the form opened on, for the hidden field `base` (see `read_base`)."""
    data = {slot: slot_value(value) for slot, value in sorted(base.items())}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def read_base(text: str | None) -> dict[str, Value] | None:
    """The hidden `base` field back, or None when it is missing or malformed."""
    try:
        data = parse_json(text) if text else None
    except ValueError:
        return None
    if not isinstance(data, dict) or len(data) > 100:
        return None
    return decode_base(data)


def _fact(item: Any, lang: Lang) -> dict[str, str]:
    """A fact in the words every view uses (`bot.prefs.remembered.fact_view`)."""
    fact = fact_view(item, lang)
    text = " ".join(fact.text.split())
    return {
        "id": fact.id,
        "text": fact.text,
        "short": text if len(text) <= 80 else text[:79] + "…",
        "lang": HTML_LANG[fact.lang],
        "source": fact.source,
        "iso": fact.iso,
        "date": fact.date,
        "scope": fact.scope,
    }


__all__ = ["LANGUAGES", "Asset", "Renderer", "Result", "base_json", "load_assets", "read_base"]
