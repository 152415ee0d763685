"""Chinese amounts said by their scale or in slang, read before any bare number
(`money.amounts`): notes counted ("三张一晚", "五舊水"), a cap of a bare thousand ("酒店最好别过
千"), pay or spending in scale words alone ("月入过万", "花了几千") and a price as a scale
beside a priced thing ("酒店大几百都行"). Moved out of `money` unchanged (round 33 review)."""

from __future__ import annotations

import re
from collections.abc import Iterator

# Things whose price a Chinese number beside them is.
THING_ZH = "(?:酒店|宾馆|民宿|住宿|房费|房间|房|机票|车票|票|打车|车费|出租车|网约车|餐费|餐|饭)"

# Money slang that counts notes: "三张一晚" (three 100-yuan notes), "五舊水" (Cantonese, 500),
# "两撇水" (2000), "3张毛爷爷". A note count is money only beside a rate, a limit or a budget
# ("两张床", "三张票" are beds and tickets).
_ZH_DIGIT = r"(?:[1-9]|[一二两三四五六七八九十])"
SLANG = re.compile(
    rf"(?<![0-9一二两三四五六七八九十]){_ZH_DIGIT}\s?(?:旧|舊|嚿|撇)水"
    rf"|(?<![0-9一二两三四五六七八九十]){_ZH_DIGIT}\s?张(?=\s*(?:毛爷爷|红票子?|红的|大钞|百元"
    r"|(?:每|一|/)(?:晚|间|天|夜)|以内|以下|左右|上下|封顶|的?预算))"
    rf"|(?:预算|价格|房价|报销|标准|差标)[^,.;，。；]{{0,6}}?{_ZH_DIGIT}\s?张(?![票床车机卡纸照])"
)

# "酒店最好别过千": a cap of a bare thousand, about a priced thing.
OVER_SCALE = re.compile(
    rf"(?:{THING_ZH}|住)[^。！？!?;\n]{{0,12}}?(?:别|不|不要|不能|不得)(?:超)?过"
    r"([一两二三四五六七八九]?[千万])(?![0-9一二两三四五六七八九米里人次个步])"
)


# Pay or spending said in scale words alone: "月入过万", "年薪百万", "花了几千", "奖金十几万".
SCALE_ONLY = re.compile(
    r"(?:月入|年入|月薪|年薪|工资|收入|奖金|年终奖|年包|薪水|底薪|花了|花掉|花费|预算|存款)"
    r"[^0-9。，,；;！？!?\n]{0,3}?(?:过|上|近|破|超|小|大|好|了)?[一两二三四五六七八九十几数]?"
    r"[十百千万亿]{1,3}(?![0-9一二两三四五六七八九十百千万米步里人公])"
)


# A price said as a scale alone, beside a priced thing: "酒店大几百都行", "打车小一百"...
VAGUE_PRICE = re.compile(
    rf"(?:{THING_ZH}|住|高铁|机票|升舱|吃饭|请客)[^。，,；;！？!?\n0-9]{{0,6}}?"
    r"(?:[大小]几[百千万]|小[一两二三四五六七八九]?[百千万]|几[百千](?:块|多|来)?)"
    r"(?!\s*(?:公里|千米|米|里|人|位|次|个|天|晚|夜|站|步|公斤|斤|克|分钟|小时|年|岁|积分|里程|页|张))"
)


def scaled(text: str) -> Iterator[tuple[int, int]]:
    """The spans of the amounts above in normalised `text`."""
    yield from (match.span() for match in SLANG.finditer(text))
    yield from (match.span() for match in SCALE_ONLY.finditer(text))
    yield from (match.span() for match in VAGUE_PRICE.finditer(text))
    yield from (match.span(1) for match in OVER_SCALE.finditer(text))


__all__ = ["THING_ZH", "scaled"]
