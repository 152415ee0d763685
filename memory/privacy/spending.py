"""What people say around an amount of money with no currency word: what was spent, paid,
got back or earned, a rate of pay or allowance, a fare, a unit of purchase, and a cap or an
approximation. `memory.privacy.prices` reads a bare number with these around it as money.
"""

from __future__ import annotations

import re

from memory.privacy.vocabulary import (
    ADMISSIONS,
    HAGGLED_DOWN,
    PAYERS,
    PAYING_EN,
    PAYING_PHRASAL,
    PAYING_ZH,
    PER_WORD,
)

F = re.ASCII | re.IGNORECASE

# What was spent, paid, given or set aside, right before the number: "spent 2300",
# "came to 1340", "ran me 410", "set aside 3000", "花了23000", "一共2400", "给酒店留800".
SPENT_BEFORE = re.compile(
    rf"(?:(?<![a-z])(?:{PAYING_EN}|spends|spending|pays|{HAGGLED_DOWN}"
    rf"|blew|blown|dropped|{PAYING_PHRASAL}|splurged|burned|wasted|owe[sd]?"
    r"|set\s+(?:me|us|him|her|them)\s+back|came\s+(?:out\s+)?(?:to|at)|comes\s+(?:out\s+)?(?:to|at)|ran(?:\s+(?:me|us))?"
    r"|runs\s+(?:me|us)|totall?ed|totals?|grand\s+total|subtotal|billed|expensed|reimbursed"
    r"|cover|covers|covered|set\s+aside|put\s+aside|budgeted|allot(?:ted)?|earmark(?:ed)?"
    r"|all\s+in|all-in|in\s+total|altogether|saved|save|saving|refunded|quoted|split|brought"
    r"|claimed|bill|bills|lost|topped\s+up|withdrew|exchanged|got\s+back|paid\s+back"
    r"|(?:dropped|fell|went\s+(?:down|up)|came\s+down|rose|jumped|climbed|increased|decreased"
    r"|reduced|discounted|marked\s+down|cut|raised)\s+to)(?![a-z])"
    r"(?:\s+(?:me|us|about|around|roughly|nearly|almost|over|under|like|only|just|a\s+total\s+of"
    r"|up\s+to|at\s+least|at\s+most|maybe|probably|close\s+to|north\s+of|south\s+of"
    r"|upwards\s+of|more\s+than|less\s+than|well\s+over|just\s+over|just\s+under|~))*\s*:?\s*"
    rf"|(?:{PAYING_ZH}|花费|花|付过|付|掏|刷|消费了?|开销|开支|用了|报销了?|报了|报"
    r"|结账|结了|共计|合计|总计|总共|一共|总额|总价|总花费|总费用|账单|跳到|跳表|打表|留了?|预留"
    r"|准备了?|出了|给了|塞了|打赏了?|赏了|挣了?|赚了?|省了|省下|退了|多收了?我?|少收了?|充值了?|充了|转了我|转账|多花了?"
    r"|少花了?|多付了?|另付|另加|另算|补了我?|赔了我?|退了我|退我|赔我|返了我?|罚了|扣了"
    r"|(?:要|只|就|才|进门|门口|入场|进场)收(?:费)?|降到|涨到|跌到|降至|涨至|降了|涨了|砸了?"
    r"|愿意花|肯花|舍得花|出到|肯出|能出|愿意出|吃了|喝了|玩了)"
    r"(?:大概|大约|约|差不多|将近|快|才|就|只|了|个|共)*\s*[:：]?\s*)\Z",
    F,
)
# Rates of allowance or pay: "每天给报200", "日均300", "每次出差最多2500", "90 daily".
RATE_BEFORE_ZH = re.compile(
    r"(?:每天|每日|一天|日均|每月|每个月|一个月|月均|每周|每年|一年|每次|每趟|单程|往返|来回|一小时"
    r"|每小时|时薪)"
    r"[^0-9,.;!?，。；！？\n]{0,6}?\Z"
)
# Pay said with "make" or "earn": "I make 8k", "clears 12000" (thousands only: "make 2 stops").
EARN_BEFORE = re.compile(
    r"(?<![a-z])(?:make|makes|made|making|earn|earns|earned|earning|clear|clears|net|nets|gross"
    r"|take\s+home|takes\s+home|bring\s+home|brings\s+home|get\s+paid|(?:i'?m|i\s+am)\s+on)"
    r"(?![a-z])\s*"
    r"(?:about\s+|around\s+|roughly\s+|like\s+|over\s+|nearly\s+)?\Z",
    F,
)
# A fare: "14000 one way", "553 return", "八百九单程".
FARE_AFTER = re.compile(
    r"\s*(?:(?:one|1)[\s-]way|each\s+way|round[\s-]?trip|return(?:\s+ticket)?|r/t|o/w|rt"
    r"|rtn)(?![a-z])"
    r"|\s*(?:单程|往返|来回)",
    F,
)
# A unit of purchase after the number ("60 per cabin", "14 a bed"); not "every" ("60 every
# night" is as often how often as a price).
PURCHASE_AFTER = re.compile(
    rf"\s*(?:(?:per|a|an|each|/)\s*(?:{PAYERS}|{ADMISSIONS}|pax|couple|cabin|seat|bed|berth"
    r"|bunk|night|car|pass|go)(?![a-z])|apiece|all[\s-]in"
    r"|plus\s+tax|pp(?![a-z])|p\.p\.)",
    F,
)
# Money returned: "got 1,000 back on the hotel", "received 220 back".
GOT_BEFORE = re.compile(
    r"(?<![a-z])(?:got|get|gets|getting|received|receive|claimed|claim|want|wanted)(?![a-z])"
    r"\s*(?:about\s+|around\s+|roughly\s+|only\s+|just\s+)?\Z",
    F,
)
BACK_AFTER = re.compile(r"\s+back(?![a-z])", F)
# A booking and what it went for: "booked it for 900", "got a room for 380".
BOOKED_FOR = re.compile(
    r"(?<![a-z])(?:booked|book|got|get|found|find|bought|buy|snagged|grabbed|scored|reserved"
    r"|picked\s+up|sold)(?![a-z])[^.!?\n,;]{0,30}?(?<![a-z])for\s+(?:only\s+|just\s+|about\s+"
    r"|around\s+|under\s+)?\Z",
    F,
)
# A cap or an approximation with no unit: "keep it under 800", "nothing above 1500",
# "around 600", "~1200", "控制在800", "大概1200", "比500便宜", "1500以内"; a number of hundreds
# only (small ones are hours, people, stops).
CAP_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:under|below|less\s+than|no\s+more\s+than|not\s+more\s+than|max(?:imum)?"
    r"|at\s+most|up\s+to|not\s+over|above|over|more\s+than|cheaper\s+than|pricier\s+than"
    r"|more\s+expensive\s+than|around|about|approx(?:imately)?|roughly|circa|some|ballpark"
    r"|in\s+the\s+region\s+of)(?![a-z])|[~≈<>≤≥]|=)\s*\Z"
    r"|(?:不超过|不要超过|别超过|不能超过|控制在|最多|至多|顶多|不高于|低于|少于|不到|大概|大约|约|差不多"
    r"|比)\s*\Z",
    F,
)
CAP_AFTER = re.compile(
    r"\s*(?:or\s+(?:less|under|cheaper|below|lower)|max(?:imum)?|tops|at\s+most|or\s+so|extra"
    r"|on\s+top|additional|for\s+(?:everything|all\s+of\s+it|the\s+lot|both|the\s+pair)"
    r"|and\s+(?:under|below)|is\s+the\s+(?:sweet\s+spot|limit|max|ceiling))(?![a-z])"
    r"|\s*(?:以内|以下|之内|左右|上下|封顶|便宜|贵|档|的(?:房间|房|机票|票|酒店|车票))",
    F,
)
# Limits no clock time takes: "150 max", "under 180", "不超过150".
HARD_CAP_AFTER = re.compile(
    r"\s*(?:or\s+(?:less|under|cheaper|below|lower)|max(?:imum)?|tops|at\s+most)(?![a-z])"
    r"|\s*(?:以内|以下|封顶)",
    F,
)
HARD_CAP_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:under|below|less\s+than|no\s+more\s+than|not\s+more\s+than"
    r"|max(?:imum)?|at\s+most|up\s+to|not\s+over|cheaper\s+than)(?![a-z])|[<≤])\s*\Z"
    r"|(?:不超过|不要超过|别超过|不能超过|控制在|最多|至多|顶多|不高于)\s*\Z",
    F,
)
RATE_AFTER = re.compile(
    r"\s*(?:(?:-?ish|or\s+so)\s*)?(?:daily|a\s+day|per\s+day|/\s?day|each\s+day|every\s+day"
    r"|/\s?d(?![a-z])|pp|p\.p\.?|pppn|pn|p/n|pnpp)(?![a-z])|\s*(?:一天|每天|/天|每日)",
    F,
)
# Pay: a number and "a month", "a year", "an hour" is a wage when it is large or scaled.
WAGE_AFTER = re.compile(
    rf"\s*(?:{PER_WORD}\s*(?:month|year|yr|hour|hr|week|annum)|monthly|yearly"
    r"|annually|hourly|weekly|p\.?a\.?)(?![a-z])|\s*(?:一个月|每月|每年|一年|每小时|一小时)",
    F,
)
PAY_AFTER = re.compile(
    r"\s*(?:[a-z\-]+\s+){0,2}?(?:bonus(?:es)?|salary|salaries|commission|stipend|allowance"
    r"|per\s+diem|raise|pay\s+rise|pay\s?check|pay\s?cheque|wage)(?![a-z])"
    r"|\s*的?(?:年终奖|奖金|工资|月薪|年薪|提成|补贴|补助|津贴|餐补|日补|差补|房补|车补|饭补|话补"
    r"|[\u4e00-\u9fff]{1,2}补(?:贴|助))",
    F,
)
# Round 16: money put in with others, where "in" is otherwise a year's or a place's word
# ("tossed in 25 for the porter", "chipped in 40"; "in 2019" stays a year), and money earned
# ("my side gig brings in 800 a month", round 17).
PAID_IN = re.compile(
    r"(?<![a-z])(?:toss(?:ed|es)?|chip(?:ped|s)?|thr(?:ew|ow|ows)|put|puts|pitch(?:ed|es)?"
    r"|kick(?:ed|s)?|pay|paid|pays|brings?|bringing|brought|pulls?|pulled|rakes?|raked)\s+in\s+(?:about\s+|around\s+|another\s+|an\s+extra\s+)?\Z",
    F,
)

__all__ = [
    "BACK_AFTER",
    "BOOKED_FOR",
    "CAP_AFTER",
    "CAP_BEFORE",
    "EARN_BEFORE",
    "FARE_AFTER",
    "GOT_BEFORE",
    "HARD_CAP_AFTER",
    "HARD_CAP_BEFORE",
    "PAID_IN",
    "PAY_AFTER",
    "PURCHASE_AFTER",
    "RATE_AFTER",
    "RATE_BEFORE_ZH",
    "SPENT_BEFORE",
    "WAGE_AFTER",
]
