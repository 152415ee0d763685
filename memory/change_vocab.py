"""Reading `change_terms.json`: each entry a list of words or patterns per language; a
malformed file fails loudly, naming the file and the entry."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from memory.errors import MemoryEngineError

LANGS = ("en", "zh")
# A reason said inside the clause that says a change ("I'm done with Lufthansa after the
# strikes"): its words say why, not what is given up.
REASON = re.compile(r"\b(?:after|because|since|due to|thanks to)\b|因为|由于")
# "不…了" says a change and a negation; the verb right after 不 is what is no longer done
# ("现在照片不洗出来了": printing, not the photos), which the change pattern would hide
# (what follows it, an object or a direction, is left out as before).
NOT_ANY_MORE = re.compile(r"不(?:太|再)?([^，。,.；;！!？?不了])[^，。,.；;！!？?不了]{0,7}了")


def not_any_more(norm: str, whole: bool) -> str:
    """`norm` with each "不…了" phrase replaced by its verb, or (`whole`) all it says."""
    return NOT_ANY_MORE.sub(lambda m: f" {m.group(0)[1:-1] if whole else m.group(1)} ", norm)


# A change still under way ("I'm getting used to red-eyes", "慢慢习惯坐红眼了"): the older
# stance may still hold, so it never replaces one; both stay, the newer marked newer.
GRADUAL = re.compile(
    r"\b(?:getting|growing|becoming|starting to get|learning to get) (?:more )?used to\b|"
    r"\b(?:warming|coming) (?:up |a?round )?to\b|\b(?:slowly|gradually) (?:getting|starting)\b|"
    r"(?:慢慢|逐渐|渐渐|开始)(?:地)?(?:习惯|适应|接受|能接受)",
    re.IGNORECASE,
)

# Verbs that give up what follows them ("I've stopped using Uber", "I've cut out booze",
# "I'm off the booze", "went sober"): a change said, and no repeat of what they give up (not
# "stopped over in Dubai", "stopped at Paris"; "stopped worrying about delays" gives up a
# worry, which the stance reader reads). Abstaining ("I'm teetotal") is a negative stance.
GIVE_UP = re.compile(
    r"\b(?:stop(?:ped|ping)?|quit(?:ting)?|g[ai]ven? up|giving up|done with|through with|"
    r"cut(?:ting)? out|(?:i'm|i am|been|now) off (?:the|my))\b"
    r"(?! (?:over|in|at|by|off|for|worry|caring|minding|avoid|hating|fuss|stress|complain)\w*\b)|"
    r"\b(?:went|gone|going|turned) (?:sober|teetotal|dry|vegan|vegetarian|veggie)\b",
    re.IGNORECASE,
)
ABSTAINS = re.compile(r"\b(?:i'm|i am|been|stay(?:ing)?) (?:sober|teetotal)\b", re.IGNORECASE)
# Before a give-up verb in its clause, words that make it no give-up of the speaker's: a
# negation ("I haven't cut out coffee"), someone else ("my daughter went vegetarian", "he
# quit"), a thought or a plan ("thinking about going sober", "should I quit"); and a clause
# asked ("cut out coffee?"). Only words after the speaker count ("since my scare I've cut out").
_NOT_MINE = re.compile(
    r"\b(?:not|never|no|\w+n't|cannot|my|our|his|her|their|your|you|he|she|they|he's|she's|"
    r"they're|they've|has|should|would|could|might|may|will|shall|if|whether|maybe|perhaps|"
    r"thinking|considering|planning|plan|want|wants|wanted|hope|hoping|try|trying|tried|"
    r"about)\b",
    re.IGNORECASE,
)
_CLAUSE_START = re.compile(
    r"(?:[,.;!?:]|\b(?:but|and|so|because|though|although)\b)", re.IGNORECASE
)
_SPEAKER = re.compile(r"\b(?:i|i've|ive|i'm|im|we|we've|we're)\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,.;!:]|\b(?:but|though|although)\b|(?P<asked>\?)", re.IGNORECASE)


def _mine(text: str, start: int, end: int) -> bool:
    """Whether the give-up verb at `start:end` is the speaker's own, said as done."""
    before = _SPEAKER.split(_CLAUSE_START.split(text[:start])[-1])[-1]  # "since my scare I've"
    after = _CLAUSE_END.search(text, end)
    return _NOT_MINE.search(before) is None and not (after and after.group("asked"))


def gives_up(text: str) -> tuple[str, bool]:
    """The stance a fact takes when no stance cue says one ("negative" when it abstains),
    and whether a give-up verb says the speaker's change."""
    stance = "negative" if ABSTAINS.search(text) else "positive"
    return stance, any(_mine(text, m.start(), m.end()) for m in GIVE_UP.finditer(text))


# A complaint about a service ("东航老延误", "Delta is always late", "the driver was late
# again"): no liking nor choice of it, so a name in it sets no slot (`memory.decision`) unless
# a stance or a change is said, and a time word in it ("again", 又) says no change.
COMPLAINT = re.compile(
    r"(?:老|总|总是|老是|经常|又|常常|动不动就?)(?:延误|晚点|误点|迟到|取消|超售|丢行李)了?|"
    r"\b(?:always|often|usually|keeps? (?:being|getting)|forever|(?:was|were|is|are) (?:running )?)"
    r"(?:late|delayed|cancel(?:l)?ed|overbooked)(?: again| all the time)?\b|"
    r"\b(?:delays?|delayed) (?:again|all the time)\b",
    re.IGNORECASE,
)
# A report of one occasion ("I was stuck in a window seat again", "上次又被分到靠窗的位子",
# "The aisle was taken so I sat by the window"; "The conference hotel is a Hilton this time",
# "这次会议酒店是希尔顿", not "从这次开始"): what happened or happens once, not what one wants,
# so it sets no slot (`memory.decision`) and its "again" / 又 (`AGAIN`) says no change.
ONCE = r"(?<!from )\bthis time\b|(?<!从)这一?次(?!起|开始|以后)|这趟"  # with a stance too
REPORT = re.compile(
    ONCE + "|"
    r"\b(?:was|were|got|get|been) (?:stuck|put|given|moved|seated|assigned|bumped|placed)\b|"
    r"\b(?:gave|put|moved|assigned|seated|bumped|stuck) (?:me|us)\b|\b(?:i|we) (?:sat|ended up)\b|"
    r"\b(?:was|were) (?:taken|full|booked up|sold out)\b|"
    r"\b(?:last|previous) (?:trip|flight|stay)\b|"
    r"上次|上回|那次|被(?:分|安排|换|塞)",
    re.IGNORECASE,
)
AGAIN = re.compile(r"\bagain\b|又|再次", re.IGNORECASE)


class ChangeTermsError(MemoryEngineError, ValueError):
    """The change vocabulary file is malformed; the message names the file and the entry."""


def term_words(data: Mapping[str, Any], name: str, source: str) -> list[str]:
    raw: Any = data.get(name)
    require(isinstance(raw, dict) and set(raw) == set(LANGS), source, name)
    words = [w for lang in LANGS for w in raw[lang]]
    require(all(isinstance(w, str) and w for w in words), source, name)
    return words


def require(ok: object, source: str, where: str) -> None:
    if not ok:
        raise ChangeTermsError(f"{source}: {where} is malformed")


def group_patterns(data: Mapping[str, Any], name: str, source: str) -> dict[str, re.Pattern[str]]:
    """An entry of named groups, each a list of patterns per language (`aspects`, `meals`)."""
    groups: Any = data.get(name)
    require(isinstance(groups, dict) and groups, source, name)
    return {group: term_patterns(groups, group, source) for group in groups}


def apart(
    groups: Mapping[str, re.Pattern[str]], times: re.Pattern[str], old: str, new: str
) -> bool:
    """Whether `new` names groups of `groups` (meals of the day) and `old` none of them: a
    change about a meal says nothing of another meal or of what names none ("晚饭不吃了" /
    "早餐喜欢吃西式的", "现在出差午饭经常不吃" / "喜欢住带厨房的公寓，可以给孩子做饭"); one
    about no meal may still change a fact that names one ("I've given up alcohol" / "a glass
    of wine with dinner"). A meal said as a time (`times`: "after lunch", "午饭后") names none."""
    texts = [times.sub(" ", unicodedata.normalize("NFKC", t).casefold()) for t in (old, new)]
    a, b = ({name for name, p in groups.items() if p.search(t)} for t in texts)
    return bool(b) and not a & b


def either(*patterns: re.Pattern[str]) -> re.Pattern[str]:
    """One pattern matching what any of `patterns` matches."""
    return re.compile("|".join(f"(?:{p.pattern})" for p in patterns), re.IGNORECASE)


def term_patterns(data: Mapping[str, Any], name: str, source: str) -> re.Pattern[str]:
    raw: Any = data.get(name)
    require(isinstance(raw, dict) and set(raw) == set(LANGS), source, name)
    listed = [p for lang in LANGS for p in raw[lang]]
    require(listed and all(isinstance(p, str) and p for p in listed), source, name)
    try:
        return re.compile("|".join(f"(?:{p})" for p in listed), re.IGNORECASE)
    except re.error as exc:
        raise ChangeTermsError(f"{source}: {name}: {exc}") from exc


__all__ = [
    "AGAIN",
    "COMPLAINT",
    "GRADUAL",
    "LANGS",
    "NOT_ANY_MORE",
    "ONCE",
    "REASON",
    "REPORT",
    "ChangeTermsError",
    "apart",
    "either",
    "group_patterns",
    "not_any_more",
    "require",
    "term_patterns",
    "term_words",
]
