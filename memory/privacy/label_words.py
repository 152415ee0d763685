"""The label dictionary: the words that say what a value is, by category, in English and
Chinese, with the abbreviations people type ("ppt", "mob", "acct", "pwd", "ffn", "cc",
"手机号", "证件号", "会员号"), and the words that say a number is something harmless
("booking", "order", "version", "航班").

`labels(text)` finds them all in normalised text (`memory.privacy.text`), each with its
category; `nearest(found, start, end, text)` picks the label that owns a value: the closest
one in the same sentence, before it (within `BEFORE` characters) or after it (within
`AFTER`). The structural rules of `memory.privacy.identifiers` use it to name what a long
number or a code is, whatever words stand between the label and the value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from memory.privacy.categories import Category

F = re.ASCII | re.IGNORECASE

# "benign": a number this label owns is a booking reference, a flight, a version ...
Kind = Literal["id", "card", "cvv", "account", "secret", "phone", "amount", "benign"]


def _en(words: str) -> str:
    """English words (spaces inside a phrase match any run of spaces), as whole words."""
    alternatives = sorted(words.split("|"), key=len, reverse=True)
    return r"(?<![a-z])(?:" + "|".join(a.replace(" ", r"\s*") for a in alternatives) + r")(?![a-z])"


def _zh(words: str) -> str:
    return "(?:" + "|".join(sorted(words.split("|"), key=len, reverse=True)) + ")"


# Longer, more specific phrases come first within one alternation ("member id" is an
# account, "id" alone an identity document), so a phrase is never split into two labels.
_ACCOUNT = (
    _en(
        "member id|member no|member number|membership|member|customer id|customer no"
        "|customer number|loyalty|rewards|reward|frequent flyer|frequent flier|ffn|ffp|ff no"
        "|ff number|acct|account|a/c|iban|bank account|sort code|routing number|bonvoy|marriott"
        "|hilton honors|hilton|honors|honours|hh|hyatt|ihg|one rewards|accor|all accor|skymiles"
        "|aadvantage|mileageplus|mp#|mp no|mp number|krisflyer|asia miles|asiamiles|avios"
        "|executive club|flying blue|miles and more|miles & more|miles&smiles|phoenixmiles"
        "|eastern miles|qantas ff|velocity|aeroplan|skywards|eurobonus|flying club|lifemiles"
        "|privilege club|etihad guest|royal orchid plus|mileage bank|mileage club|enrich"
        "|club carlson|wyndham rewards|guest rewards|wechat id|alipay|paypal|user id|login id"
        "|username"
        # airlines, hotel groups and booking platforms: "my United number is AB123456"
        "|united|delta|american airlines|lufthansa|emirates|qatar|cathay|cathay pacific"
        "|singapore airlines|british airways|air france|klm|air china|china eastern"
        "|china southern|hainan airlines|shangri-la|golden circle|radisson|four seasons"
        "|atour|huazhu|jinjiang|didi|ctrip|trip.com|fliggy|meituan|expedia|agoda|airbnb"
        "|skyteam|star alliance|oneworld"
    )
    + "|"
    + _zh(
        "会员号码|会员号|会员卡号|会员卡|会员|常旅客|里程卡|账号|帐号|账户|帐户|户号|客户号"
        "|知音卡|凤凰知音|知音|东方万里行|万里行|万里通|明珠会员|明珠|金鹏|优悦会|华住会|锦江"
        "|荣誉客会|旅享家|积分卡|银行账号|银行帐号|收款账号|开户|微信号|支付宝|qq号"
        "|国航|东航|南航|海航|川航|厦航|深航|山航|春秋|吉祥|国泰|新航|汉莎|阿联酋|万豪|希尔顿"
        "|洲际|凯悦|香格里拉|雅高|亚朵|华住|如家|首旅|携程|飞猪|滴滴|美团|同程|去哪儿|铂涛"
    )
    + r"|(?<![0-9])12306(?![0-9])"
)
_ID = (
    _en(
        "passport no|passport number|passport|ppt|pp no|travel document|travel doc|doc no"
        "|doc number|doc|document no|document number|id card|identity card|national id|id no"
        "|id number|id|hkid|hk id|tw id|nric|ssn|social security|national insurance|ni number"
        "|nino|aadhaar|aadhar|driver's license|drivers license|driving licence|driving license"
        "|licence no|license no|dl no|residence permit|green card|home return permit"
        "|travel permit|visa no|visa number|tax id|tin|cnic|curp|dni|nie|my number card"
        "|mynumber|individual number|sfz|sfzh|shenfenzheng|huzhao"
    )
    + "|"
    + _zh(
        "身份证号码|身份证号|身份证|身分证|证件号码|证件号|证件|护照号码|护照号|护照|通行证"
        "|台胞证|回乡证|居留证|居住证|驾照|驾驶证|社保号|字号|军官证|签证号"
    )
)
_CARD = (
    _en(
        "credit card|debit card|card number|card no|card|cc|visa|mastercard|master card|mc|amex"
        "|american express|unionpay|union pay|jcb|discover|diners|maestro"
    )
    + "|"
    + _zh("银行卡|信用卡|储蓄卡|借记卡|卡号|银联|工资卡|白金卡|金卡|卡")
)
# Security codes: their value is three or four digits soon after ("CVV? 4 digits on the
# front of the amex: 1234", "卡背面的三个数字是 318").
_CVV = (
    _en(
        "cvv|cvv2|cvc|cvc2|csc|cvn|security code|security number|card code|card verification"
        "|digits on the back"
        "|digits on back|number on the back|code on the back|on the back of the card"
        "|back of the card|3 digit code|3-digit code|three digit code|4 digit code"
    )
    + "|"
    + r"(?:背面|背后|反面)[^,.，。\s]{0,6}?[三四34](?:个|位)(?:数字|数|码)?"
    + "|"
    + _zh("安全码|校验码|后三位|三位码|cvv码")
)
_PHONE = (
    _en(
        "phone number|phone no|phone|ph|tel|telephone|mob|mobile|cell|cellphone|contact number"
        "|contact no|whatsapp|wa|viber|sms|text me|call me|reach me|ring me|call|hotline|landline"
        "|shouji|shoujihao|dianhua"
    )
    + "|"
    + _zh("手机号码|手机号|手机|电话号码|电话|联系电话|联系方式|座机|打我|打给我|联系我|致电|来电")
)
_SECRET = (
    _en(
        "password|passwd|passphrase|passcode|pass code|pwd|pw|pin|pin code|otp|door code"
        "|gate code|entry code|access code|alarm code|alarm panel|alarm pin|keypad code"
        "|lock code|lockbox|lock box|safe code|combo|combination|wifi key|wifi code|wi-fi key"
        "|wi-fi code|wifi password|wi-fi password|network key|psk|pre-shared key|wpa key"
        "|wpa2 key|2fa|2fa code|backup code|backup codes|recovery code|recovery codes"
        "|one-time code|verification code|auth code|authenticator code|login|log-in|sign-in"
        "|credentials|creds|key safe|keysafe|key box|lock code|wifi pass|wi-fi pass|guest pass"
        "|mima"
    )
    # "Airbnb door: code 7-3-9-1", "the gate, code 4471": a lock named, then its code
    + r"|(?<![a-z])(?:door|gate|lock|safe|lockbox|keypad|alarm|garage|building|entry)(?![a-z])"
    r"[^.,;!?\n]{0,12}?(?<![a-z])(?:code|combo|combination|pin)(?![a-z])"
    # "wifi: Guest2024!": a network named before a colon is followed by its key
    + r"|(?<![a-z])(?:wi-?fi|wlan|network)(?=\s*[:=])"
    # "the villa gate opens with …": a lock named, then what opens it
    + r"|(?<![a-z])(?:door|gate|lock|safe|lockbox|keypad|garage|building|entry|entrance|lobby"
    r"|villa|locker)(?![a-z])[^.,;!?\n]{0,20}?(?<![a-z])(?:opens?|unlocks?)\s+(?:with|using)"
    r"(?![a-z])|"
    + _zh(
        "密码|口令|暗号|门禁码|门禁|开门码|门锁|验证码|动态码|登录|登陆|密钥|秘钥|开锁码|解锁码"
        "|保险箱|保险柜|密码箱|密码锁"
    )
)
# "password manager", "密码 manager 用 1Password": a tool, not a secret.
_SECRET = rf"(?:{_SECRET})(?!\s*(?:manager|protected|policy|reset|app|vault|keeper)(?![a-z]))"
_AMOUNT = (
    _en(
        "budget|price|cost|costs|fare|rate|spend|salary|income|wage|wages|pay|paid|earn|earning"
        "|earnings|allowance|per diem|quid|bucks|dollars|euros|pounds|yuan|kuai|rmb|cny|usd|eur"
        "|gbp|hkd|jpy|twd|sgd|grand"
    )
    + "|"
    + _zh(
        "预算|价格|房价|票价|费用|月薪|年薪|工资|收入|薪水|元|块|刀|镑|欧|蚊|美金|港币|人民币|日元"
    )
    + r"|[¥$€£₩₹]"
)
_BENIGN = (
    _en(
        "booking|reservation|confirmation|conf|order|ticket|ref|reference|pnr|record locator"
        "|invoice|receipt|tracking|extension|ext|version|ip|model|flight|flights|train|trains"
        "|seat|row|room|gate|terminal|platform|floor|zip|postcode|post code|postal code|route"
    )
    + "|"
    + _zh(
        "订单号|订单|预订号|预订|预定|确认号|票号|分机|版本|车次|航班|座位|房间|邮编|线路|积分|里程"
    )
)

# What may follow a label and belongs to it: "常旅客卡号", "PhoenixMiles card no.", "ID number".
_SUFFIX = (
    r"(?:\s*(?:card\s*(?:no|number|num)\.?|card|number|no\.?|num|id|#)(?![a-z])"
    r"|\s*(?:卡号|卡|号码|编号|号))?"
)
_KINDS: tuple[tuple[Kind, str], ...] = (
    ("account", rf"(?:{_ACCOUNT}){_SUFFIX}"),
    ("id", rf"(?:{_ID}){_SUFFIX}"),
    ("cvv", _CVV),
    ("card", rf"(?:{_CARD}){_SUFFIX}"),
    ("phone", rf"(?:{_PHONE}){_SUFFIX}"),
    ("secret", _SECRET),
    ("amount", _AMOUNT),
    ("benign", _BENIGN),
)
LABEL = re.compile("|".join(f"(?P<{kind}>{pattern})" for kind, pattern in _KINDS), F)

# Where a sentence ends: a label there owns nothing beyond it. "?" does not end one that
# answers itself ("password? it's …", "PIN? use …"), nor a line break one that ends in a
# colon (a form: "身份证号：\n110105 …"); a full stop does not close an abbreviation ("no.",
# "tel.", "acct.") or sit inside a number ("4.5").
_ENDS = re.compile(
    r"[!。！？]|(?<!:\s)(?<!:)\n|\?(?!\s*(?:it'?s|it\s+is|that'?s|use|try|enter|type|punch"
    r"|key\s+in|=|:|是|就是|用|输|按))|(?<![a-z])[a-z]{5,}\.(?=\s|$)"
    r"|(?<=[\d\s)\]])\.(?=\s|$)",
    F,
)
_ASKED = re.compile(r"\s*\?")
BEFORE = 48  # how far before a value its label may stand
AFTER = 32  # how far after a value its label may stand ("hunter22 is my passcode")


@dataclass(frozen=True, slots=True)
class Label:
    kind: Kind
    start: int
    end: int


def category_of(label: Label) -> Category | None:
    """The category a label gives the value it owns (None: a harmless owner)."""
    kind = label.kind
    if kind == "benign":
        return None
    return "card" if kind == "cvv" else kind


# Round 25: a combo of two things bought together is a bundle, not a lock's combination: "the
# visa plus insurance combo was 189", "burger and fries combo", "a combo deal".
_BUNDLE = re.compile(
    r"(?:(?<![a-z])(?:plus|and|with|meal|deal|value|family|ticket|package)\s+|[+&/]\s*)"
    r"(?:[a-z'-]+\s+){0,2}\Z",
    re.ASCII | re.IGNORECASE,
)
_BUNDLE_AFTER = re.compile(r"\s*(?:deals?|meals?|tickets?|packages?|pass(?:es)?)(?![a-z])", re.I)


def _bundle(text: str, match: re.Match[str]) -> bool:
    word = match.group().lower()
    if word not in ("combo", "combos"):
        return False
    start = match.start()
    return bool(
        _BUNDLE.search(text, max(0, start - 40), start) or _BUNDLE_AFTER.match(text, match.end())
    )


def labels(text: str) -> list[Label]:
    """Every label in normalised `text`, in order."""
    found: list[Label] = []
    for match in LABEL.finditer(text):
        kind = match.lastgroup
        if kind is not None and match.end() > match.start() and not _bundle(text, match):
            found.append(Label(kind, match.start(), match.end()))  # type: ignore[arg-type]
    return found


def same_sentence(text: str, start: int, end: int) -> bool:
    """Whether nothing ends a sentence between text[start] and text[end]. A question mark
    right after a label asks for its value and does not end it ("CVV? 4 digits …: 1234")."""
    skip = _ASKED.match(text, start)
    return _ENDS.search(text, skip.end() if skip else start, end) is None


def nearest(found: list[Label], start: int, end: int, text: str) -> Label | None:
    """The label that owns the value at text[start:end], if any (see the module docstring)."""
    best: tuple[int, Label] | None = None
    for label in found:
        if label.end <= start:
            gap = start - label.end
            if gap > BEFORE or not same_sentence(text, label.end, start):
                continue
        elif label.start >= end and label.kind != "benign":  # "booking 1234", not "1234 booking"
            gap = label.start - end
            if gap > AFTER or not same_sentence(text, end, label.start):
                continue
            gap += 8  # a label before a value is the usual order; after, it must be closer
        else:
            continue
        if best is None or gap < best[0]:
            best = (gap, label)
    return best[1] if best else None


__all__ = [
    "AFTER",
    "BEFORE",
    "LABEL",
    "Kind",
    "Label",
    "category_of",
    "labels",
    "nearest",
    "same_sentence",
]
