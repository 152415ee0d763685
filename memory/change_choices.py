"""Named choices in free words (`memory.changes`): airlines, hotel chains, board sports
said by name, and memberships of their programmes. A membership is no choice: it holds
beside a later choice that names nothing of it, and two memberships add up; a named
choice given up for another named in a clause of its own is a switch, not a narrower
case of it; a change from a broad kind ("hotels") to one of its kinds ("serviced
apartments") is one too."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from memory.change_clauses import CLAUSE, ClauseReader, Reading
from memory.change_vocab import REASON
from memory.profile import ProfileSchema
from memory.scope import facets_of

# Aspect groups of `change_terms.json` that hold names only (a booking *app* or *site* is
# no name of one).
NAMES = frozenset(
    (
        "airline_name",
        "hotel_chain",
        "board_sport",
        "card_brand",
        "payment_app",
        "coffee_chain",
        "car_hire",
        "ride_app",
    )
)
# Names of kinds whose loyalty programmes are memberships apart from the choice.
_PROGRAMMES = frozenset(("airline_name", "hotel_chain"))
# A name no list holds, read from its shape (capitalised words) and the words around it
# that say its kind ("I fly Icelandair", "Aer Lingus is my airline", "I stay at the
# Hoxton"), or a Chinese airline's "XX航空"; case-sensitive, on the fact's own text.
_NAME = r"(?P<name>[A-Z][\w&'-]*(?: [A-Z][\w&'-]*){0,2})"
_KIND = r"(?:is|are|has been) (?:my|our) (?:[\w-]+ ){0,2}"
_SHAPES = {
    "airline_name": (
        rf"\bfl(?:y|ies|ying|ew|own) {_NAME}",  # "fly with" names people and things too
        rf"\b{_NAME} {_KIND}(?:airline|carrier)\b",
        rf"\bmy (?:[\w-]+ ){{0,2}}(?:airline|carrier) (?:is|was) {_NAME}",
        r"(?<=\s)(?P<name>[A-Z][a-z]+air)\b",
        # "XX航空" said as a name: a function word after it, not a compound noun
        # ("航空箱", "航空餐", "航空里程"); stop characters in XX are no name ("得用航空箱")
        r"(?<!低)(?P<name>(?!廉价|成本)[\u4e00-\u9fff]{2})航空"
        r"(?=$|[^\u4e00-\u9fff]|[的了吧呢啊也都就还不别是比和跟以现最会常金银挺很太])",
    ),
    "hotel_chain": (
        rf"\bstay(?:s|ed|ing)? (?:at|with) (?:the |an? )?{_NAME}",
        rf"\b{_NAME} {_KIND}hotels?\b",
        rf"\bmy (?:[\w-]+ ){{0,2}}hotel (?:is|was) (?:the )?{_NAME}",
    ),
}
_CJK = re.compile(r"[\u4e00-\u9fff]+")
# Words that leave what follows them (`chosen_again`): the name after them, before a word
# that says where one goes ("left Delta for United", "从国航换成东航"), is given up.
_LEAVES = re.compile(
    r"\b(?:from(?! (?:here|now|today))|done with|through with|gone off|went off|fed up with|"
    r"sick of|tired of|no more|quit|gave up|given up|g[ai]ven(?= (?:[\w'-]+ ){1,3}up\b)|"
    r"dropped|ditched|used to|instead of|"
    r"rather than|swap(?:ped|ping)?|trad(?:ed|ing)|replac(?:ed|ing)|stopp(?:ed|ing)|left|"
    r"leaving|other than|except(?: for)?|apart from|(?:any|every)(?:thing|one|\w* \w+)? but)\b|"
    r"不再|以前|原来|过去|而不是|不(?:坐|住|用|订|飞)|换掉|放弃|除了|取代了?|代替了?|替代了?|"
    r"从(?!现在|今天|今年|明年|此|以后|下)",
    re.IGNORECASE,
)
# Words that leave the name before them ("国航以外的", "United ... is out").
_LEFT_BEHIND = re.compile(r"以外|之外|(?:\b(?:is|are) |'s )(?:out|over)\b", re.IGNORECASE)
_GOES_TO = re.compile(r"\b(?:for|to|into|with)\b|换|改|成|到", re.IGNORECASE)
_SHAPED = {kind: [re.compile(p) for p in patterns] for kind, patterns in _SHAPES.items()}


def shaped(
    schema: ProfileSchema, text: str, common: frozenset[str], groups: Iterable[re.Pattern[str]]
) -> frozenset[str]:
    """The kinds of named choice `text` names by shape: a name that is no place (the
    gazetteer's), none of the schema's own phrases ("Economy"), no `common` word
    ("Business") and none a `groups` pattern already reads ("Airbnb": a kind of lodging)."""
    phrases = schema.phrases(text)
    kinds = set()
    for kind, patterns in _SHAPED.items():
        for found in (m for pattern in patterns for m in pattern.finditer(text)):
            start, end = found.span("name")
            name = found["name"].casefold()
            if any(s < end and start < e for s, e in phrases) or name in common:
                continue
            if _CJK.fullmatch(name) and any(char in common for char in name):
                continue
            if any(group.search(name) for group in groups):
                continue
            if any(k == "place" for k, _ in facets_of(schema.scopes.read(found["name"]))):
                continue
            kinds.add(kind)
    return frozenset(kinds)


# A broad subject and its kinds' aspect group: "I stay at hotels" changes to one of them.
_KINDS = (("lodging", "lodging_type"),)


def other_kind(reader: ClauseReader, a: Reading, b: Reading, old: str, new: str) -> bool:
    """Whether `new` says a change to another kind of what `old` names and nothing
    more ("I stay at hotels" -> "I prefer serviced apartments now", "出差住酒店" ->
    "现在更喜欢住服务式公寓"): the older fact's words are all generic ones, the newer
    names a kind of the same sort (`_KINDS`), not the older's word, and does not avoid
    it ("No hostels" after "I stay at hotels" adds)."""
    if a.content or not b.change or b.stance == "negative":
        return False
    sorts = reader.subjects.of(old)
    named = reader._generic_words.findall(_norm(old))
    again = reader._generic_words.findall(_norm(new))
    for sort, group in _KINDS:
        if sort not in sorts or group not in b.aspects:
            continue
        kind = {w.rstrip("s") for w in named if sort in reader.subjects.of(w)}
        if not kind & {w.rstrip("s") for w in again}:
            return True
    return False


def membership_holds(a: Reading, b: Reading) -> bool:
    """A membership (`a`), then a choice naming nothing of it (`b`): "我是万豪会员",
    "最近改住希尔顿了"."""
    return "loyalty" in a.aspects - b.aspects and not a.tokens & b.tokens


def membership_adds(reader: ClauseReader, a: Reading, b: Reading, new: str) -> bool:
    """Whether the newer fact (`new`, read as `b`) adds a membership to the older (`a`):
    two memberships, the newer saying no change ("我是东航会员" / "我是南航明珠会员"), or a
    membership that chooses nothing (the slot reader reads no choice in it) and names
    nothing of the older fact, whatever its change word ("I fly American" / "My wife is a
    United MileagePlus member now", "出差常住全季" / "最近刚办了华住会员")."""
    if "loyalty" in a.aspects & b.aspects and not b.change:
        return True
    new_only = "loyalty" in b.aspects - a.aspects and not a.tokens & b.tokens
    if a.aspects & b.aspects & NAMES - _PROGRAMMES:
        return False  # another card or app named for its points: "the Amex for me now"
    return new_only and reader.schema.detect(new) is None


def named_choices(a: Reading, b: Reading, choices: frozenset[str]) -> bool:
    """Whether both facts name a choice of one kind (`choices`: the aspect groups of named
    choices) in one stance: a switch between two names, which the embedding of two names
    alone places lower than other changes."""
    return a.stance == b.stance and bool(a.aspects & b.aspects & choices)


def names_in(reader: ClauseReader, kinds: Iterable[re.Pattern[str]], text: str) -> frozenset[str]:
    """The tokens of the names that `text` says of `kinds` (aspect groups of names)."""
    norm = _norm(text)
    found = [m.group(0) for kind in kinds for m in kind.finditer(norm)]
    return reader.read(" ".join(found)).tokens if found else frozenset()


def kept_names(
    reader: ClauseReader, kinds: Sequence[re.Pattern[str]], old: str, new: str
) -> frozenset[str]:
    """The tokens of the names `old` says of `kinds` when `new` says one of them again: none
    when `new` names only others, though they share a word ("支付宝" / "微信支付")."""

    def names(text: str) -> set[str]:
        norm = _norm(text)
        return {m.group(0) for kind in kinds for m in kind.finditer(norm)}

    if not names(old) & names(new):
        return frozenset()
    return names_in(reader, kinds, old)


def listed_switch(reader: ClauseReader, kinds: Iterable[str], old: str, new: str) -> bool:
    """Whether `new` names, by the lists, another name of a kind of `kinds` than `old` does: a
    switch of the whole habit, whatever season or kind of trip the older was said of ("I
    always pay with my Amex card abroad" / "these days it's the Visa for me"), but not one
    said of a place the newer does not name, which may still hold there ("In Japan I pay
    with JCB": both stay, the newer marked). A name read from its shape only ("Ergobaby is
    our baby carrier now") is no switch of an airline."""
    left = reader.read(old).facets - reader.read(new).facets
    if any(f.startswith("place:") or f == "trip:business" for f in left):
        return False
    for kind in kinds:
        older, newer = (_members(reader._groups[kind], text) for text in (old, new))
        if older and newer - older:
            return True
    return False


def chosen_again(reader: ClauseReader, names: frozenset[str], new: str) -> bool:
    """Whether every clause of `new` that says one of `names` (the older fact's choice)
    chooses it anew: says a change, in no negative stance and with no word that leaves
    it ("Switched to United after they moved my hub, so United from here on" agrees
    with "United is my airline": it moves to United, from something else)."""
    said = [reader.read(c) for c in CLAUSE.split(new) if c.strip()]
    clauses = [(c, r) for c, r in zip(CLAUSE.split(new), said, strict=False) if r.tokens & names]
    for clause, reading in clauses:
        if not reading.change or reader.schema.stance(clause) == "negative":
            return False
        for leaves in _LEAVES.finditer(clause):
            left = _GOES_TO.split(clause[leaves.end() :], maxsplit=1)[0]
            if reader.read(left).tokens & names:
                return False
        for behind in _LEFT_BEHIND.finditer(clause):
            if reader.read(_GOES_TO.split(clause[: behind.start()])[-1]).tokens & names:
                return False
    return bool(clauses)


def left_in_reason(reader: ClauseReader, a: Reading, b: Reading, old: str, new: str) -> bool:
    """Whether the newer fact (`new`, read as `b`) makes another name of a kind the older
    (`old`, read as `a`) names its habit, in the older's stance and no change word, and names
    the older's only in its reason: "Travelodge is my go-to since Premier Inn put their prices
    up" leaves Premier Inn."""
    kinds = [reader._groups[k] for k in sorted(a.aspects & b.aspects & NAMES)]
    said = REASON.search(new)
    if b.change or a.stance != b.stance or not kinds or said is None:
        return False
    main, why = new[: said.start()], new[said.end() :]
    older, chosen = names_in(reader, kinds, old), names_in(reader, kinds, main)
    if not older or not older <= reader.read(why).tokens or not chosen or chosen & older:
        return False
    habit = reader._habitual.search(main.casefold()) is not None
    return habit and reader.schema.stance(main) is None


# Aspect groups whose words name things of one kind apart (a wine is no beer, a hostel no
# Airbnb, Hilton no Marriott), the words that name such a kind whole ("alcohol", 酒 alone),
# and those that give a thing up when the stance reader reads none ("I quit whisky").
_APART = frozenset(("alcohol", "lodging_type", "ground", "bathroom", *NAMES))
_WHOLE = re.compile(
    r"alcohol\w*|booze|boozing|drinking|(?:a|the) drink|teetotal|sober|酒|小酌|喝[两一]杯"
)
_GIVES_UP = re.compile(
    r"\b(?:stop(?:ped|ping)?|quit(?:ting)?|g[ai]ven? up|giving up|no more|done with|through with|"
    r"cut(?:ting)? out|dropped|ditched)\b|不再|戒|放弃",
    re.IGNORECASE,
)


def other_given_up(reader: ClauseReader, a: Reading, b: Reading, old: str, new: str) -> bool:
    """Whether `new` (read as `b`) gives up things of a kind the older fact (`old`, read as
    `a`) names others of, and neither the older's nor the kind whole: "I quit whisky" leaves
    "I love cocktails at the hotel bar", "青旅现在不住了" leaves "我喜欢住民宿"; "I've given up
    alcohol" gives up "a glass of wine with dinner"."""
    if _other_way_given_up(reader, old, new):
        return True  # ways of getting around, named apart (`_WAYS`), not by the aspect group
    for group in sorted(a.aspects & b.aspects & _APART - {"ground"}):
        older, newer = (_members(reader._groups[group], text) for text in (old, new))
        named, held = ({m for m in ms if not _WHOLE.fullmatch(m)} for ms in (newer, older))
        if not named or not held or _words(named) & _words(older):
            continue  # the older names the kind only ("a drink"), or the same thing
        clauses = [c for c in CLAUSE.split(new) if _members(reader._groups[group], c) & named]
        if clauses and all(_gives_up(reader, c) for c in clauses):
            return True
    return False


# Ways of getting around, each with the things it covers: the aspect group "ground" names
# broad ones only (public transport, a rental car), and the subject reads a bus and Uber
# alike. 打车 hails a taxi or a car by app; 出租车 is a taxi, no 租车 (a rental car).
_HAILED = ("taxi", "uber", "lyft", "didi", "app")
_WAYS = tuple(
    (re.compile(pattern), frozenset(things))
    for pattern, things in (
        (r"\buber\w*|优步", ("uber",)),
        (r"\blyft\w*", ("lyft",)),
        (r"滴滴", ("didi",)),
        (r"\bride-?hail\w*|\bride-?shar\w*|网约车|专车", ("uber", "lyft", "didi", "app")),
        (r"\btaxis?\b|\bcabs?\b|出租|的士", ("taxi",)),
        (r"打车|叫[个辆台部]?车", _HAILED),
        (r"\bbus(?:es)?\b|公交", ("bus",)),
        (r"\bcoach(?:es)?\b|大巴", ("coach",)),
        (r"\bshuttles?\b|接驳|摆渡车", ("shuttle",)),
        (r"\bmetro\b|\bsubway\b|\bunderground\b|\btube\b|地铁", ("metro",)),
        (r"\btrains?\b|高铁|动车|火车", ("train",)),
        (r"\bdriv(?:e|es|ing)\b|\bdrove\b|自驾|开车", ("drive",)),
        (r"\bpublic transport\w*|\btransit\b|公共交通", ("bus", "metro", "train")),
        (
            r"\brent(?:s|al|ed|ing)?(?: (?:an?|the))? cars?\b|\brent\b|\bcar hire\b|"
            r"\bhire (?:an? )?cars?\b|(?<!出)租车",
            ("rental",),
        ),
    )
)


def _ways(text: str) -> frozenset[str]:
    """The things of ground transport `text` names (`_WAYS`)."""
    norm = _norm(text)
    return frozenset(t for way, things in _WAYS if way.search(norm) for t in things)


def _other_way_given_up(reader: ClauseReader, old: str, new: str) -> bool:
    """Whether `new` gives up ways of getting around that cover none `old` names: "I've
    stopped using Uber" leaves "I take the bus in cities", "我现在不打车了" leaves "在城市里
    我坐地铁"; "我现在不打车了" gives up "我一般坐出租车" (打车 covers taxis)."""
    held, named = _ways(old), _ways(new)
    if not held or not named or held & named:
        return False
    clauses = [c for c in CLAUSE.split(new) if _ways(c)]
    return bool(clauses) and all(_gives_up(reader, c) for c in clauses)


def _members(group: re.Pattern[str], text: str) -> set[str]:
    norm = _norm(text)
    return {m.group(0).rstrip("s") for m in group.finditer(norm)}


def _words(members: set[str]) -> set[str]:
    """The words of English members ("ritz-carlton", "rent a car": ritz, car) and Chinese
    members whole (红酒 is no 白酒)."""
    return {w.rstrip("s") for m in members for w in re.split(r"[^a-z&]+", m) if len(w) > 2} | {
        m for m in members if _CJK.search(m)
    }


def _gives_up(reader: ClauseReader, clause: str) -> bool:
    return reader.schema.stance(clause) == "negative" or _GIVES_UP.search(clause) is not None


def switches(reader: ClauseReader, a: Reading, new: str) -> bool:
    """Whether a clause of `new` that gives up nothing names another choice of a kind the
    older fact (read as `a`) names (an airline, a hotel chain, a booking site): what is
    given up elsewhere in `new` is then left for it, not narrowed ("I'm not a Sheraton
    member anymore, I switched to Radisson Rewards", "希尔顿的会员不续了，现在是万豪会员")."""
    kinds = a.aspects & NAMES
    for clause in CLAUSE.split(new):
        said = reader.read(clause) if clause.strip() else None
        if said is None or not kinds & said.aspects or said.tokens & a.tokens:
            continue
        if reader.schema.stance(clause) != "negative" and said.tokens:
            return True
    return False


def _norm(text: str) -> str:
    """The text as the name lists read it (NFKC, case folded)."""
    return unicodedata.normalize("NFKC", text).casefold()


__all__ = [
    "NAMES",
    "chosen_again",
    "kept_names",
    "left_in_reason",
    "listed_switch",
    "membership_adds",
    "membership_holds",
    "named_choices",
    "names_in",
    "other_given_up",
    "other_kind",
    "shaped",
    "switches",
]
