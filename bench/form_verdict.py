"""Benchmark: what the preferences form's privacy check costs and where it disagreed with chat.

Before, the form, its REST API, `/travel-prefs` and approval reasons checked free text with
the rules alone (`memory.privacy.scan`); now with `memory.privacy.verdict`, the verdict of
chat's record path (rules, the learned reading of guessed amounts, similarity to
instructions). This script measures, over the privacy corpus's development sets (both
languages, sensitive and benign sentences; nothing here is tuned):

- disagreements: sentences the rules alone answer differently from chat's record path
  (`PrivacyGuard.check` on the sentence alone), split into "the form refused what chat keeps"
  and "the form kept what chat refuses"; with `verdict` both are zero by construction, and
  the script checks it;
- the form's check per call, benign and sensitive sentences apart
  (`bot.prefs.form.free_text_problem`, the function every renderer calls): the rules alone
  against the verdict, each sentence new to the process (the embedder caches what it has
  seen), p50 / p95 / max in ms;
- what a person waits for on save, minus HTTP: `validate_form` then `save_profile` (the
  REST API's and the page's work) with one note, on a SQLite memory without Redis, old check
  against new, alternating per sentence;
- the first call in a fresh process (the bundled model loaded), in a child process.

    .venv/bin/python bench/form_verdict.py [--limit 120]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.prefs import form as form_module  # noqa: E402
from bot.prefs.form import free_text_problem, privacy_message, validate_form  # noqa: E402
from bot.prefs.saving import save_profile  # noqa: E402
from memory import open_memory  # noqa: E402
from memory.lang import Lang  # noqa: E402
from memory.privacy import scan, verdict  # noqa: E402
from memory.privacy.guard import PrivacyGuard  # noqa: E402

CORPUS = ROOT / "tests" / "memory" / "privacy_corpus"


def dev_sentences(kind: str) -> list[tuple[str, str]]:
    """(language, text) of every `kind` ("sensitive", "benign") sentence of the dev sets."""
    found: list[tuple[str, str]] = []
    for path in sorted(CORPUS.glob("*dev*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for case in doc.get(kind, []):
            found.append((str(case.get("lang", "en")), str(case["text"])))
    return found


def rules_only_problem(raw: str, lang: Lang, limit: int) -> str | None:
    """The form's check as it was: the rules alone."""
    text = " ".join(raw.split())
    if len(text) > limit:
        return "too long"
    category = scan(text)
    return privacy_message(category, lang) if category else None


def _ms(values: Sequence[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"p50 {statistics.median(ordered) * 1000:.1f} · p95 {p95 * 1000:.1f} · "
        f"max {ordered[-1] * 1000:.1f} ms (n={len(ordered)})"
    )


def disagreements(sentences: Sequence[tuple[str, str]]) -> None:
    guard = PrivacyGuard()
    refused_kept = kept_refused = other = still = 0
    for _, text in sentences:
        chat = guard.check([" ".join(text.split())])[0]
        rules = scan(text)
        if verdict(text) != chat:
            still += 1
        if rules == chat:
            continue
        if rules is not None and chat is None:
            refused_kept += 1
        elif rules is None and chat is not None:
            kept_refused += 1
        else:
            other += 1
    print(f"dev sentences: {len(sentences)}")
    print(f"  rules alone vs chat: form refused what chat keeps {refused_kept}, form kept what")
    print(f"  chat refuses {kept_refused}, both refuse but for another reason {other}")
    print(f"  verdict vs chat: {still} disagreements")


def per_call(sentences: Sequence[tuple[str, str]], label: str) -> None:
    # A suffix without digits (a number would change the verdict) makes each text new to the
    # embedder's cache.
    def timed(check: Callable[[str, Lang, int], str | None], tag: str) -> list[float]:
        out = []
        for lang, text in sentences:
            fresh = f"{text} ({tag} {label} form)"
            started = time.perf_counter()
            check(fresh, "zh" if lang == "zh" else "en", 500)
            out.append(time.perf_counter() - started)
        return out

    print(f"form check per call, {label}, rules alone: {_ms(timed(rules_only_problem, 'a'))}")
    print(f"form check per call, {label}, verdict:     {_ms(timed(free_text_problem, 'b'))}")


def saves(sentences: Sequence[tuple[str, str]], label: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        memory = open_memory(dsn=f"sqlite:///{folder}/m.db", redis_url="")
        schema = memory.schema
        old, new = [], []
        original = form_module.free_text_problem
        for number, (lang, text) in enumerate(sentences):
            for which in ("old", "new") if number % 2 else ("new", "old"):
                form_module.free_text_problem = rules_only_problem if which == "old" else original
                ns = f"T1:U{which}{number}"
                note = f"{text} ({which})"
                language: Lang = "zh" if lang == "zh" else "en"
                started = time.perf_counter()
                checked = validate_form(schema, {"seat": "aisle"}, note, language)
                if not checked.errors:
                    save_profile(memory, ns, checked, lang=language, base={})
                (old if which == "old" else new).append(time.perf_counter() - started)
        form_module.free_text_problem = original
    print(f"validate + save, {label}, rules alone: {_ms(old)}")
    print(f"validate + save, {label}, verdict:     {_ms(new)}")


def first_call() -> None:
    code = (
        "import time; t = time.perf_counter();"
        "from bot.prefs.form import free_text_problem;"
        "free_text_problem('window seat, row 12 or so', 'en', 500);"
        "print(f'{(time.perf_counter() - t) * 1000:.0f}')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    took = out.stdout.strip()
    print(f"first call in a fresh process (imports and model load included): {took} ms")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=120, help="sentences timed (default 120)")
    args = parser.parse_args(argv)
    sets = {kind: dev_sentences(kind) for kind in ("benign", "sensitive")}
    disagreements([*sets["benign"], *sets["sensitive"]])
    verdict("warm up")
    for kind, sentences in sets.items():
        timed = sentences[:: max(1, len(sentences) // args.limit)][: args.limit]
        per_call(timed, kind)
        saves(timed[: args.limit // 2], kind)
    first_call()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
