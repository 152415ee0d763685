"""Model markdown becomes Slack mrkdwn, and long answers fit Slack's limits."""

from __future__ import annotations

import pytest

from bot.slack.markdown import MESSAGE_LIMIT, clean_text, split_message, to_mrkdwn


@pytest.mark.parametrize(
    ("markdown", "mrkdwn"),
    [
        ("**bold** and __also bold__", "*bold* and *also bold*"),
        ("*italic* and _italic_", "_italic_ and _italic_"),
        ("~~gone~~", "~gone~"),
        (
            "[the hotel](https://example.org/h?a=1&b=2)",
            "<https://example.org/h?a=1&amp;b=2|the hotel>",
        ),
        ("[**Book**](https://example.org)", "<https://example.org|Book>"),
        ("![map](https://example.org/map.png)", "<https://example.org/map.png|map>"),
        ("# Trip to Chengdu", "*Trip to Chengdu*"),
        ("### Day **1**", "*Day 1*"),
        ("- one\n* two\n  + nested", "• one\n• two\n  • nested"),
        ("1 < 2 & 3 > 2", "1 &lt; 2 &amp; 3 &gt; 2"),
        ("> quoted **text**", "> quoted *text*"),
        ("`a < b` stays **code**", "`a &lt; b` stays *code*"),
        ("ask <@U123> in <#C456|travel>", "ask <@U123> in <#C456|travel>"),
        ("snake_case_name stays", "snake_case_name stays"),
        ("2 * 3 * 4", "2 * 3 * 4"),
        ("## 行程 **安排**", "*行程 安排*"),
        ("---", "──────────"),
    ],
)
def test_markdown_becomes_mrkdwn(markdown: str, mrkdwn: str) -> None:
    assert to_mrkdwn(markdown) == mrkdwn


def test_code_blocks_keep_their_content_and_lose_the_language_tag() -> None:
    markdown = "Run:\n\n```python\nif a < b and **c**:\n    pass\n```\nDone."
    assert to_mrkdwn(markdown) == "Run:\n\n```\nif a &lt; b and **c**:\n    pass\n```\nDone."


def test_tables_become_code_blocks() -> None:
    markdown = "| Train | Class |\n|---|:---:|\n| G1 | First |"
    assert to_mrkdwn(markdown) == "```\n| Train | Class |\n| G1 | First |\n```"


def test_short_text_is_one_part() -> None:
    assert split_message("hello") == ["hello"]
    assert split_message("   ") == []


def test_long_text_splits_between_paragraphs_within_the_limit() -> None:
    paragraphs = [f"Paragraph {n}. " + "word " * 150 for n in range(20)]
    parts = split_message("\n\n".join(paragraphs), limit=2000)
    assert len(parts) > 1
    assert all(len(part) <= 2000 for part in parts)
    rejoined = "\n\n".join(parts)
    assert [p.strip() for p in rejoined.split("\n\n")] == [p.strip() for p in paragraphs]


def test_an_endless_line_and_an_endless_word_are_cut_within_the_limit() -> None:
    parts = split_message("x" * 10_000 + " tail " + "y " * 3000)
    assert all(len(part) <= MESSAGE_LIMIT for part in parts)
    assert "".join(parts).count("x") == 10_000


def test_a_long_code_block_is_closed_and_reopened_across_parts() -> None:
    code = "\n".join(f"step {n}: " + "z" * 60 for n in range(120))
    parts = split_message(f"Here:\n\n```\n{code}\n```\n\nEnd.", limit=1500)
    assert len(parts) > 2
    assert all(len(part) <= 1500 for part in parts)
    for part in parts:
        assert part.count("```") % 2 == 0  # every part renders its code as code
    lines = [line for part in parts for line in part.splitlines() if line.startswith("step")]
    assert lines == code.splitlines()


@pytest.mark.parametrize(
    ("markdown", "mrkdwn"),
    [
        ("hey <!channel>", "hey @channel"),
        ("hey <!channel|channel>", "hey @channel"),
        ("hey <!here>", "hey @here"),
        ("hey <!here|@here>", "hey @here"),
        ("hey <!everyone>", "hey @everyone"),
        ("ask <!subteam^S0ADMINS|@travel-admins>", "ask @travel-admins"),
        ("ask <!subteam^S0ADMINS>", "ask @group"),
        ("on <!date^1700000000^{date}|Nov 14>", "on Nov 14"),
        ("**<!channel>** now", "*@channel* now"),
        ("# <!here> news", "*@here news*"),
        ("- <!everyone> read this", "• @everyone read this"),
        ("> <!channel>", "> @channel"),
        ("[click](!channel)", "click (!channel)"),
        ("[click](<!channel>)", "click (@channel)"),
        (
            "<@U123|bob> and <@W0ENT> in <#C456> <#G789|old>",
            "<@U123|bob> and <@W0ENT> in <#C456> <#G789|old>",
        ),
        (
            "<https://example.org/a?b=1|the site> <mailto:a@example.org>",
            "<https://example.org/a?b=1|the site> <mailto:a@example.org>",
        ),
        ("<javascript:alert(1)|x>", "&lt;javascript:alert(1)|x&gt;"),
        ("<@channel> <#here>", "&lt;@channel&gt; &lt;#here&gt;"),
        ("\x030\x03 <!channel>", "0 @channel"),
    ],
)
def test_special_mentions_are_rendered_harmlessly(markdown: str, mrkdwn: str) -> None:
    converted = to_mrkdwn(markdown)
    assert converted == mrkdwn
    assert "<!" not in converted


def test_user_text_keeps_no_broadcast_tokens() -> None:
    text = "<@UBOT> tell <!channel> and <!subteam^S1|@ops> about &lt;!here&gt;"
    cleaned = clean_text(text, "UBOT")
    assert cleaned == "tell @channel and @ops about <!here>"
    assert "<!" not in to_mrkdwn(cleaned)
