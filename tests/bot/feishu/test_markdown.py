"""The core's Markdown in Feishu cards: it renders, and only mentions whom it names."""

from __future__ import annotations

from bot.feishu.markdown import escape, split, to_card_markdown


def test_markdown_is_kept_and_mentions_become_feishus() -> None:
    text = "## Plan\n- **Train** G1 for <@ou_zhang|张三>\n- see [agenda](https://x.test/a)"
    assert to_card_markdown(text) == (
        "## Plan\n- **Train** G1 for <at id=ou_zhang></at>\n- see [agenda](https://x.test/a)"
    )


def test_tags_the_model_copied_are_shown_not_obeyed() -> None:
    text = "Hi <at id=all></at> <font color='red'>x</font> <!channel>"
    shown = to_card_markdown(text)
    assert "<at" not in shown and "<font" not in shown
    assert shown == "Hi &lt;at id=all>&lt;/at> &lt;font color='red'>x&lt;/font> @channel"


def test_code_keeps_its_characters() -> None:
    text = "Use `a<b` and\n```\nif a < b:\n    pass\n```"
    assert to_card_markdown(text) == text


def test_remembered_text_is_inert() -> None:
    fact = "[click](https://evil.test) <at id=all></at> **loud** :OK: ~~x~~\n# not a heading"
    shown = escape(fact)
    for active in ("[", "<at", "**", ":OK:", "~~", "\n#"):
        assert active not in shown
    assert escape("MU5101 07:30-10:10, CNY 1380 (economy)") == (
        "MU5101 07:30-10:10, CNY 1380 (economy)"
    )


def test_long_answers_split_between_paragraphs_and_keep_code_blocks_whole() -> None:
    paragraphs = [f"Paragraph {i}: " + "word " * 60 for i in range(10)]
    text = (
        "\n\n".join(paragraphs[:5])
        + "\n\n```\n"
        + "code line\n" * 80
        + "```\n\n"
        + "\n\n".join(paragraphs[5:])
    )
    parts = split(text, limit=1000)
    assert len(parts) > 2
    assert all(len(part) <= 1010 for part in parts)
    assert all(part.count("```") % 2 == 0 for part in parts)
    assert "".join(parts).count("Paragraph") == 10
    assert split("short") == ["short"]
    assert split("   ") == []
