"""The model's Markdown as DingTalk renders it: headings, quotes, bold and italic, links,
images, lists and "two spaces + newline" breaks, and nothing else.

Model-like answers in English and Chinese go through the sink to the fake OpenAPI, and the
test reads what DingTalk receives: no table pipes, no code fences, single newlines as hard
breaks, paragraphs kept, every fact still there.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

from bot.dingtalk.api import OpenAPI
from bot.dingtalk.markdown import renderable
from bot.dingtalk.timers import Timers
from tests.bot.dingtalk.conftest import make_sink
from tests.support.dingtalk_api import FakeDingTalkAPI

ENGLISH = """## Your Chengdu trip

Here is the plan for **Monday**.
I kept you off red-eyes, as you asked.

| Option | Depart | Arrive | Score |
|:-------|-------:|--------|------:|
| CA4112 | 08:05 | 10:40 | 92 |
| G8501 | 07:30 | 14:55 | 85 |

To save it, send:

```text
/travel-prefs save
    then confirm
```

- Hotel near `Chunxi Road`
- Breakfast included

Bon voyage!"""

CHINESE = """### 成都行程

周一出发，
早上的航班，下午开会。

| 项目 | 内容 |
| --- | --- |
| 航班 | CA4112 08:05 |
| 酒店 | 春熙路附近 |

```
保存行程 ABCDEFGH
```

> 记得带身份证
> 提前两小时到机场

1. 先订机票
2. 再订酒店"""


def _lines(text: str) -> list[str]:
    return text.split("\n")


def test_an_english_answer_with_a_table_and_code_becomes_what_dingtalk_renders() -> None:
    text = renderable(ENGLISH)
    assert "|" not in text and "```" not in text and "`" not in text
    assert text.startswith("## Your Chengdu trip\n\n")  # heading, then the paragraph
    # A single newline inside a paragraph is a hard break; the paragraph stays one.
    assert "Here is the plan for **Monday**.  \nI kept you off red-eyes, as you asked." in text
    # Each table row: its first cell in bold, then "header: cell" lines.
    assert "**CA4112**  \nDepart: 08:05  \nArrive: 10:40  \nScore: 92" in text
    assert "**G8501**  \nDepart: 07:30  \nArrive: 14:55  \nScore: 85" in text
    # The code block: quoted lines, its indentation kept (no-break spaces).
    assert "> /travel-prefs save  \n> \u00a0\u00a0\u00a0\u00a0then confirm" in text
    assert "- Hotel near Chunxi Road\n- Breakfast included" in text  # a list stays a list
    paragraphs = text.split("\n\n")
    assert paragraphs[0] == "## Your Chengdu trip" and paragraphs[-1] == "Bon voyage!"
    assert len(paragraphs) == 8  # heading, text, 2 rows, "to save", code, list, closing


def test_a_chinese_answer_keeps_its_facts_with_full_width_labels() -> None:
    text = renderable(CHINESE)
    assert "|" not in text and "```" not in text
    assert "周一出发，  \n早上的航班，下午开会。" in text
    assert "- **航班**：CA4112 08:05\n- **酒店**：春熙路附近" in text  # two columns: a list
    assert "> 保存行程 ABCDEFGH" in text
    assert "> 记得带身份证  \n> 提前两小时到机场" in text  # one quote, two lines
    assert "1. 先订机票\n2. 再订酒店" in text
    assert text.startswith("### 成都行程\n\n")


def test_code_is_shown_as_written_never_as_markup() -> None:
    text = renderable("Example:\n\n```\n# not a heading\n- not a list\n> not a quote\n```")
    quoted = [line.rstrip() for line in _lines(text) if line.startswith(">")]
    assert len(quoted) == 3
    for line in quoted:  # what follows "> " starts with an invisible space, not markup
        assert not re.match(r"^> [#>-]", line)
    assert text.replace("\u200b", "").count("# not a heading") == 1


def test_what_dingtalk_receives_from_the_sink_is_converted(
    dingtalk: FakeDingTalkAPI, parts: tuple[OpenAPI, ThreadPoolExecutor, Timers]
) -> None:
    for answer in (ENGLISH, CHINESE):
        sink = make_sink(dingtalk, parts)
        for index in range(0, len(answer), 7):  # as a streaming core hands it over
            sink.append(answer[index : index + 7])
        sink.finish()
        sink.close()
    english, chinese = dingtalk.wait_for(2)
    assert english.text == renderable(ENGLISH) and chinese.text == renderable(CHINESE)
    assert english.title == "Your Chengdu trip" and chinese.title == "成都行程"
