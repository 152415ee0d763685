"""The README and docs/ hold together: every relative link reaches a file (and its anchor,
a heading there), and every command their shell blocks show names a real make target, a
real `travel-bot` verb with options it takes, or a script that exists.

The parser is the CLI's own (`bot.cli.build_parser`), so a renamed verb or option breaks
this test, not a newcomer's first hour.
"""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from bot.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), ROOT / "bench" / "README.md"])
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
README_LINES = 300


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _unfenced(text: str) -> str:
    """The text outside fenced code blocks (a `# comment` there is no heading)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)


def _prose(text: str) -> str:
    """The text outside code blocks and inline code (links there are no links)."""
    return re.sub(r"`[^`\n]*`", "", _unfenced(text))


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file: lower case, punctuation
    dropped, spaces to hyphens, a repeated one numbered."""
    seen: dict[str, int] = {}
    anchors = set()
    for line in _unfenced(path.read_text(encoding="utf-8")).splitlines():
        heading = re.match(r"#{1,6} (.+)", line)
        if not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _headings_of(path: Path) -> list[str]:
    return re.findall(r"^#{1,6} (.+)$", _unfenced(path.read_text(encoding="utf-8")), re.MULTILINE)


def test_the_readme_is_one_screen_of_what_a_newcomer_needs() -> None:
    readme = ROOT / "README.md"
    lines = readme.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_LINES, f"README.md has {len(lines)} lines"
    assert _headings_of(readme)[:1] == ["Travel memory bot"]


@pytest.mark.parametrize("doc", DOCS, ids=_name)
def test_every_relative_link_reaches_a_file_and_its_heading(doc: Path) -> None:
    broken = []
    for target in LINK.findall(_prose(doc.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        linked = (doc.parent / path).resolve() if path else doc
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and (linked.suffix != ".md" or anchor not in _anchors(linked)):
            broken.append(f"{target}: no such heading in {_name(linked)}")
    assert broken == []


# -- commands ------------------------------------------------------------------------------


def _shell_lines(doc: Path) -> list[str]:
    """Every line of the ```sh blocks."""
    blocks = re.findall(r"^```sh\n(.*?)^```", doc.read_text(encoding="utf-8"), re.M | re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def _commands(line: str) -> list[list[str]]:
    """The simple commands of one shell line, comments and variable assignments left out."""
    words = shlex.split(line, comments=True)
    commands: list[list[str]] = [[]]
    for word in words:
        if word in ("&", "&&", ";", "||", "|"):
            commands.append([])
        elif commands[-1] or not re.match(r"[A-Z_][A-Z0-9_]*=", word):
            commands[-1].append(word)
    return [command for command in commands if command]


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {option for action in parser._actions for option in action.option_strings}


def _travel_bot_problems(words: list[str]) -> list[str]:
    """What in `travel-bot WORDS` the CLI does not know: a verb, a sub-verb, an option.
    `a|b` in a documented command shows alternatives; each must exist."""
    parser = build_parser()
    options = set(_options(parser))
    rest = list(words)
    while rest and not rest[0].startswith(("-", "[")):
        verbs = _subparsers(parser)
        if not verbs:
            break
        word = rest.pop(0)
        choices = word.split("|")
        unknown = [choice for choice in choices if choice not in verbs]
        if unknown:
            return [f"travel-bot {' '.join(words)}: no verb {unknown[0]!r}"]
        parser = verbs[choices[0]]
        options |= _options(parser)
    problems = []
    for word in rest:
        option = re.match(r"\[?(--?[a-z][a-z-]*)", word)
        if option and option.group(1) not in options:
            problems.append(f"travel-bot {' '.join(words)}: no option {option.group(1)}")
    return problems


def _problems(command: list[str]) -> list[str]:
    program, args = command[0], command[1:]
    if program == "make":
        makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
        return [f"make {t}: no target" for t in args if not re.search(rf"^{t}:", makefile, re.M)]
    if program.endswith("travel-bot"):
        return _travel_bot_problems(args)
    if program.endswith("python") and args and args[0].endswith(".py"):
        return [] if (ROOT / args[0]).exists() else [f"{args[0]}: no such script"]
    if program == "bash" and args:
        return [] if (ROOT / args[0]).exists() else [f"{args[0]}: no such script"]
    return []  # docker, psql, export, ...: not this project's to check


@pytest.mark.parametrize("doc", DOCS, ids=_name)
def test_every_command_shown_is_one_the_project_has(doc: Path) -> None:
    problems = [p for line in _shell_lines(doc) for c in _commands(line) for p in _problems(c)]
    assert problems == []


def test_the_readme_shows_the_two_commands_and_the_verbs() -> None:
    commands = [c for line in _shell_lines(ROOT / "README.md") for c in _commands(line)]
    assert ["make", "run"] in commands and ["make", "test"] in commands
    assert any(c[0].endswith("travel-bot") for c in commands)


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["memory", "show", "--user", "local:you"], []),
        (["policy", "set|check", "--org", "T1"], []),
        (["memroy", "show"], ["travel-bot memroy show: no verb 'memroy'"]),
        (["memory", "show", "--usr", "x"], ["travel-bot memory show --usr x: no option --usr"]),
        (["trips", "list|drop"], ["travel-bot trips list|drop: no verb 'drop'"]),
    ],
)
def test_the_command_check_tells_a_wrong_verb_or_option(
    words: list[str], expected: list[str]
) -> None:
    assert _travel_bot_problems(words) == expected


def test_anchors_are_githubs(tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_text("# Title\n\n## Two `words`\n\n## Two `words`\n", encoding="utf-8")
    assert _anchors(doc) == {"title", "two-words", "two-words-1"}
