"""Changes of mind said in free words: does a newer fact replace an older one?

A typed slot knows its own changes (`memory.decision.relation`); most of what travellers say
fits no slot ("no more budget airlines", "以后酒店订在机场附近吧"). This module reads such a
pair offline: "replaces" (supersede the older), "unsure" (keep both; recall says which is
newer) or None (unrelated, or both hold). Two facts change one another only when they are

- *about the same thing*: they share a content word or a specific subject (`subjects.json`:
  "fitness", "luggage", ... not "hotels" or "flights", which nearly every fact shares), or
  one is the other with one part replaced ("I stay at Marriott" / "I stay at Hilton",
  "常用机场是首都机场" / "常用机场是大兴机场"); and their meanings are close (embeddings);
- *in the same scope*: a place, a trip kind or a situation said in one only keeps both ("In
  Beijing I stay near the airport" / "I like the city centre"; `memory.scope`, modes left
  out: in free text "hotels" is what a fact is about, not a limit on it); a general change
  of an older fact limited to a scope only marks the newer ("I skip the spa these days").

Then what the newer fact says decides. Words that add ("too", "也"), facts of a kind that
adds up (allergies; things avoided, when one replaces a part of the other) and a newer fact
that says nothing the older does not, in the same stance, keep both. Words of change ("now",
"switched to", "以后", "改成", "不…了") or a reversed stance on a shared word ("I like hotels
with a gym" / "I don't care about a gym") replace; so do a habitual choice with one part
replaced ("I usually fly out of X" / "... Y") and a name no list holds for another in one role
("I use Airalo" / "I use Holafly now", `memory.change_roles`); a liking with one part replaced
("I like Marriott hotels" / "I like Hyatt hotels"), a change about a shared word just under
the similarity floor, a narrower case given up ("排长队的博物馆就算了") are *unsure* (both
stay, the newer marked). Cue words alone never decide: "now I also want a pool" adds; a change
word about something else, or in a clause giving something else up, changes nothing ("Skiing
is off the list now, the kids find it too cold"; `memory.change_clauses`). A shared subject
alone never changes what adds up (allergies, health) nor ends a membership; an older fact of
whatever case there is, the newer naming one: marked. Vocabulary: `change_terms.json`."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from memory import change_choices as choices
from memory import change_clauses, change_roles, change_vocab
from memory.change_clauses import Reading, adds_to, change_about, ends, holder, narrows
from memory.change_vocab import ChangeTermsError, require, term_patterns, term_words
from memory.framing import CJK_RUN, UNIT, frame, stem
from memory.lang import detect_lang
from memory.profile import ProfileSchema, load_schema
from memory.scope import facets_of
from memory.subjects import Subjects, load_subjects

Verdict = Literal["replaces", "unsure"]
_DEFAULT_PATH = Path(__file__).with_name("change_terms.json")
# Subjects nearly every fact of a kind has, or that lump things apart (airlines and hotel
# chains are both "brand"): sharing one says little about what two facts are about.
_BROAD = frozenset(("flight", "rail", "lodging", "brand"))
_EN_WORD = re.compile(r"[a-z0-9][a-z0-9'-]*")
_POSSESSIVE = re.compile(r"(?<=[a-z])'s\b")


class ChangeReader:
    """The loaded vocabulary; `verdict(old, new, similarity)` decides one pair."""

    def __init__(
        self,
        data: Mapping[str, Any],
        *,
        schema: ProfileSchema,
        subjects: Subjects,
        source: str = "<change terms>",
    ) -> None:
        self.schema = schema
        self.subjects = subjects
        self._said = term_patterns(data, "change", source)
        self._past = term_patterns(data, "past", source)
        self._change = change_vocab.either(self._said, self._past)
        self._unsaid = term_patterns(data, "unsaid", source)
        self._general = term_patterns(data, "general", source)
        self._additive = term_patterns(data, "additive", source)
        self._accept = term_patterns(data, "accept", source)
        self._not_scopes = term_patterns(data, "not_scopes", source)
        self._lists = term_patterns(data, "lists", source)
        self._likes = term_patterns(data, "likes", source)
        self._habitual = term_patterns(data, "habitual", source)
        self._groups = change_vocab.group_patterns(data, "aspects", source)
        self._meals = change_vocab.group_patterns(data, "meals", source)
        self._meal_times = term_patterns(data, "meal_times", source)
        times, events = (term_patterns(data, key, source) for key in ("times", "events"))
        self._timed = (times, events, self._likes)  # "这两年去了好多次成都": no change said
        choices: Any = data.get("choice_aspects")
        ok = isinstance(choices, list) and set(choices) <= set(self._groups)
        require(ok, source, "choice_aspects")
        self._choices = frozenset(str(c) for c in choices)
        facets: Any = data.get("aspect_facets")
        require(isinstance(facets, list), source, "aspect_facets")
        self._aspect_facets = frozenset(str(f).casefold() for f in facets)
        self._generic = frozenset(w.casefold() for w in term_words(data, "generic", source))
        self._stop = frozenset(w.casefold() for w in term_words(data, "stop", source))
        words = sorted(self._generic, key=len, reverse=True)
        alts = (re.escape(w) if CJK_RUN.fullmatch(w) else rf"\b{re.escape(w)}s?\b" for w in words)
        self._generic_words = re.compile("|".join(alts))

    @lru_cache(maxsize=4096)  # noqa: B019 - one reader per vocabulary file, kept for the process
    def read(self, text: str) -> Reading:
        text = unicodedata.normalize("NFKC", text).replace("\u2019", "'")
        norm = _POSSESSIVE.sub("", text.casefold())  # "Delta's schedule": Delta
        lang = detect_lang(norm)
        stop, generic = self._stop, self._generic
        if lang == "zh":
            runs = CJK_RUN.findall(self._accept.sub(" ", norm))
            tokens = {
                run[i : i + 2]
                for run in runs
                for i in range(len(run) - 1)
                if run[i] not in stop and run[i + 1] not in stop
            }
            tokens = {t for t in tokens if not any(t in word for word in generic)}
            tokens |= {w for w in _EN_WORD.findall(norm) if w not in stop | generic}
        else:
            timed = self._meal_times.sub(lambda m: m.group(0).replace(" ", "-"), norm)
            words = {stem(w) for w in _EN_WORD.findall(timed) if w not in stop}
            tokens = {w for w in words if w not in generic}
        about = {name for name, pattern in self._groups.items() if pattern.search(norm)}
        about |= choices.shaped(self.schema, text, stop | generic, self._groups.values())
        plain = self._likes.sub(" like ", self._change.sub(" ", norm))
        units = tuple(UNIT.findall(plain))
        bare = self._generic_words.sub(" ", plain)
        # "I haven't outgrown hostels", "I'm not done with hostels": no change nor stance said
        unsaid = self._unsaid.sub(" ", change_clauses.occasional(change_clauses.unasked(norm)))
        unsaid = change_clauses.untimed(self.schema, self._timed, unsaid)
        said, past = (p.search(unsaid) is not None for p in (self._said, self._past))
        given_up = change_vocab.gives_up(unsaid)  # "I've stopped using Uber", "I'm teetotal"
        return Reading(
            lang=lang,
            units=units,
            content=frozenset(u for u in UNIT.findall(bare) if u not in stop),
            tokens=frozenset(tokens),
            aspects=frozenset(about | (self.subjects.of(text) - _BROAD)),
            facets=self._facets(text),
            stance=self.schema.stance(self._unsaid.sub(" ", norm)) or given_up[0],
            change=said or past or given_up[1],
            gives_up=given_up[1],
            additive=self._additive.search(self._accept.sub(" ", norm)) is not None,
            listed=self._lists.search(norm) is not None,
            past=past and not said,
        )

    @lru_cache(maxsize=4096)  # noqa: B019 - as `read`
    def aspect(self, text: str) -> str:
        """What a fact is about, as text to embed: its content words in English (no stop,
        generic, change or liking words); in Chinese, the text without its change and
        liking words (single characters say too little to keep apart)."""
        reading = self.read(text)
        if reading.lang != "zh":
            words = [u for u in reading.units if u in reading.content]
            return " ".join(words) or text
        norm = unicodedata.normalize("NFKC", text).casefold()
        bare = self._likes.sub(" ", self._change.sub(" ", norm))
        return "".join(bare.split()) or text

    def _facets(self, text: str) -> frozenset[str]:
        """The scope of a free-text fact: places of the gazetteer, trip kinds and situations
        (modes are what free text is about, and a name read from a shape may be a brand)."""
        scopes = self.schema.scopes
        ignore = self.schema.phrases(text) + [m.span() for m in self._not_scopes.finditer(text)]
        key = scopes.read(text, ignore=ignore, cues=self.schema.cue_pattern)
        kept = set()
        for kind, ident in facets_of(key):
            facet = f"{kind}:{ident}".casefold()
            if kind == "mode" or facet in self._aspect_facets:
                continue
            if kind == "place" and not scopes.known(kind, ident):
                continue
            kept.add(facet)
        return frozenset(kept)

    def _within(self, old: str, new: str) -> bool:
        """Whether `new` is about nothing but what `old` is: its content words (English) or
        characters (Chinese: pairs miss what one names, "会" a meeting), stance words aside."""
        if detect_lang(new) != "zh":
            return self.read(new).tokens <= self.read(old).tokens
        return self._about(new) <= self._about(old)

    @lru_cache(maxsize=4096)  # noqa: B019 - as `read`
    def _about(self, text: str, whole: bool = False) -> frozenset[str]:
        """The characters of a Chinese fact that say what it is about: no change, liking,
        stance or stop words ("上午的会别太早" -> 上, 午, 早). Generic words stay: they are
        what a fact is about ("晚上别订太晚到的航班" is about flights, not a night market).
        `whole`: what a "不…了" phrase says stays whole, not only its verb ("不在房间吃饭了")."""
        norm = unicodedata.normalize("NFKC", text).casefold()
        norm = change_vocab.not_any_more(norm, whole)  # "照片不洗出来了": 洗 stays
        for pattern in (self._change, self._likes, self.schema.cue_pattern):
            norm = pattern.sub(" ", norm)
        return frozenset(u for u in UNIT.findall(norm) if u not in self._stop)

    def says_change(self, old: str, new: str) -> bool:
        """Whether `new` says a change (a change word) about what `old` is about (a shared word
        or specific subject): worth asking the fast model about even when meanings sit apart."""
        a, b = self.read(old), self.read(new)
        return b.change and bool(a.tokens & b.tokens or a.aspects & b.aspects)

    def verdict(
        self, old: str, new: str, similarity: float, *, one_choice: bool = False
    ) -> Verdict | None:
        """Whether `new` replaces `old` (None: both hold); `one_choice`: two options of a slot."""
        found = self.weigh(old, new, similarity, one_choice=one_choice)
        return found[0] if found else None

    def weigh(
        self, old: str, new: str, similarity: float, *, one_choice: bool = False
    ) -> tuple[Verdict, int] | None:
        """The verdict and how strong its evidence is: 3 one name of a kind (an airline, a
        booking site) for another, in one stance, 2 a shared word or a replaced part, 1 a shared
        specific subject, 0 a change just under the similarity floor (always "unsure"). Among
        several older facts a newer one may change, the strongest (then closest) is changed."""
        lang = detect_lang(new)
        if detect_lang(old) != lang or similarity < _SIMILAR[lang] - _UNSURE_BELOW:
            return None  # words of two languages cannot be compared; the model can
        new = change_roles.told(self, new)  # "I've switched to Lyft, any tips for LA?"
        if change_clauses.another(old, new) or change_roles.replaced_other(self, old, new):
            return None  # another's choice ("My wife switched to Visa"), or others replaced
        found = self._weigh(old, new, similarity, one_choice=one_choice)
        a, b = self.read(old), self.read(new)
        unlisted = change_roles.unlisted_switch(self, a, b, old, new)
        if unlisted and (not found or found[0] == "unsure"):
            found = ("replaces", 2)  # a name no list holds for another: "I use Holafly now"
        if found and found[0] == "replaces" and choices.membership_holds(a, b):
            found = ("unsure", 0)  # any change the reader is surer of wins over it
        elif found and found[0] == "replaces" and change_vocab.GRADUAL.search(new):
            found = ("unsure", found[1])  # a change under way: the older may still hold
        if similarity < _SIMILAR[lang]:
            # Just under the floor, a change said (a change word) about a shared word or subject
            # is one the reader does not dare make: both stay, the newer marked newer for the
            # agent ("Find me something downtown" / "From now on book hotels near the airport").
            said = found is not None and found[0] == "replaces" and self.read(new).change
            if said and choices.named_choices(a, b, self._choices):
                return found  # two names of one kind sit apart in e5's space ("携程" / "飞猪")
            return ("unsure", 0) if said else None
        return found

    def _weigh(
        self, old: str, new: str, similarity: float, *, one_choice: bool = False
    ) -> tuple[Verdict, int] | None:
        a, b = self.read(old), self.read(new)
        if b.past:  # "I used to X" says what was: it changes an older X and nothing else
            return ("replaces", 2) if ends(self, a, b, new) else None
        shared = a.tokens & b.tokens
        specific = a.aspects & b.aspects
        if a.stance != b.stance:
            # Named choices of one kind said in two stances are two things: "I avoid
            # Ryanair" is not what "I fly United now" changes.
            specific -= self._choices
        framed = one_choice or frame(
            a.units, b.units, self._stop | self._generic, self._generic_words
        )
        kind = choices.other_kind(self, a, b, old, new)
        if not (shared or specific or framed or kind):
            return None
        # A scope said in one fact only keeps both, unless it is the part one fact
        # replaces in the other ("常用机场是首都机场" -> "...大兴机场"); a general change of
        # an older fact limited to a scope ("A spa is a must on every holiday" / "I skip
        # the spa these days") may be meant for it too: both stay, the newer marked.
        if b.change and not (framed or kind):
            b = replace(b, change=change_about(self, a, new))
        wider = not framed and b.change and a.facets > b.facets
        stray = a.facets != b.facets and not framed and not wider
        if stray or (b.additive and adds_to(self, a, new)) or (a.listed and b.listed):
            return None
        if choices.membership_adds(self, a, b, new):
            return None
        found = self._read_stances(a, b, old, new, shared, framed)
        if found and choices.other_given_up(self, a, b, old, new):
            return None  # another of a kind given up: "I quit whisky" / "cocktails at the bar"
        named = (a.aspects & self._choices, b.aspects & self._choices)
        if not found and choices.left_in_reason(self, a, b, old, new):
            return ("replaces", 3)  # another name made the habit, the older's named as why
        if found == ("unsure", 2) and b.change and choices.switches(self, a, new):
            found = ("replaces", 2)  # the named choice given up for another, not narrowed
            a = replace(a, stance=b.stance)  # one name for another (below)
        if found and found[1] == 1 and all(named) and not named[0] & named[1]:
            return None  # names of two kinds (an airline's miles, a hotel's points)
        if found and found[0] == "replaces" and a.stance == b.stance and named[0] & named[1]:
            # one name of a kind for another: a part replaced; 4 when the newer names the one
            # it leaves (among a traveller's chains, the one left by name is meant), none when
            # it names the older's as the one it moves to ("Switched to United, ...")
            kinds, both = [self._groups[k] for k in named[0] & named[1]], named[0] & named[1]
            if choices.chosen_again(self, choices.kept_names(self, kinds, old, new) & shared, new):
                return None
            found = ("replaces", 4 if shared else 3)
            wider = wider and not choices.listed_switch(self, both, old, new)
        if found and found[1] == 1 and (a.listed or "health" in specific):
            return None  # a shared subject alone never changes what adds up (allergies)
        if found and found[1] == 1 and change_vocab.apart(self._meals, self._meal_times, old, new):
            return None  # a meal is its own thing: "晚饭不吃了" / "早餐喜欢吃西式的"
        if found and not framed and a.stance == b.stance and self._general.search(old):
            # An older fact said of whatever case there is, in the newer's stance: the newer
            # may name one ("I'll take the airport train when there is one" / "Now I take
            # the Elizabeth line to the airport"). Both stay, the newer marked newer.
            return None if self._general.search(new) else ("unsure", found[1])
        return ("unsure", 0) if found and wider else found  # 0: any sure change wins

    def _read_stances(
        self, a: Reading, b: Reading, old: str, new: str, shared: frozenset[str], framed: bool
    ) -> tuple[Verdict, int] | None:
        """What the newer fact's stance and words say about the older one, in one scope."""
        flipped = (a.stance == "negative") != (b.stance == "negative")
        if flipped and {holder(self, old, b), holder(self, new, a)} == {"self", "companion"}:
            return None  # a companion's liking and the writer's own: both hold
        if framed:
            if a.stance == b.stance == "negative":
                return None  # things avoided add up: "I never take X" / "I never take Y"
            given_up = b.stance == "negative" and flipped and b.change and shared
            if given_up and narrows(self, old, new, shared):
                return "unsure", 2  # a narrower case given up: "喜欢逛博物馆" /
                # "排长队的博物馆就算了" (the queue replaces 逛, yet museums still hold)
            if b.change or flipped or self._habitual.search(new):
                return "replaces", 2
            return "unsure", 2
        if a.stance == b.stance and b.content and b.content <= a.content and not b.gives_up:
            return None  # nothing new, in the same stance: said again, or agreed with
        if shared and flipped and self._within(old, new):
            # A reversed stance replaces only when the newer fact is about nothing but
            # what the older one is ("I don't care about a gym"); one that shares a word
            # in passing says something else ("Fast wifi, I'm on calls all day" / "No
            # calls after 11pm", "怕冷，冬天别去太北的地方" / "冬天喜欢去南方", "下午的
            # 航班" / "下午的会别排太满": a meeting is not a flight).
            return "replaces", 2
        if b.change:
            if not shared and a.stance == b.stance == "negative":
                return None  # avoided things add up: "I never book non-refundable fares" /
                # "No budget carriers for me anymore" share a subject, not a thing
            if shared and flipped and narrows(self, old, new, shared):
                # The newer fact gives up a narrower case of the shared thing, or another
                # activity on it ("I take lots of pictures of street art" / "I don't print
                # my pictures anymore", "I love wandering around markets" / "Crowded night
                # markets are not for me anymore"): the older may still hold. Both stay,
                # the newer marked newer for the agent.
                return "unsure", 2
            if not shared and flipped and change_clauses.gives_up(self, new):
                kin = a.aspects & b.aspects & set(self._groups)  # a kind of it, or "辣" shared
                if not (kin or (a.lang == "zh" and self._about(old) & self._about(new, True))):
                    return None  # a give-up of one thing shares only a broad subject with
                    # the older ("喜欢吃火锅" / "吃怕了飞机餐"): not about it, nor its kind
            return "replaces", 2 if shared else 1
        return None

    def loose(self, old: str, new: str, similarity: float) -> bool:
        """Whether `new` says a change (a change word) about something `old` shares no word,
        subject or frame with, in one language and scope, over the similarity floor: maybe one
        thing in other words ("I always pick up a postcard" / "I've stopped buying keepsakes"),
        weighed by the closeness of aspects (`memory.decision`). Never a replacement."""
        lang = detect_lang(new)
        if detect_lang(old) != lang or similarity < _SIMILAR[lang]:
            return False
        a, b = self.read(old), self.read(new)
        if not b.change or b.past or b.additive or (a.listed and b.listed) or a.facets != b.facets:
            return False
        if a.stance == "negative":
            return False  # a thing avoided is changed by naming it ("I never book
            # non-refundable fares" is not what "I only bring my e-reader now" is about)
        if a.tokens & b.tokens or a.aspects & b.aspects or choices.other_kind(self, a, b, old, new):
            return False  # the reader's own rules decide these
        return not frame(a.units, b.units, self._stop | self._generic, self._generic_words)


# Below this, two facts are not about the same thing (Chinese pairs sit higher in e5's space).
_SIMILAR = {"en": 0.84, "zh": 0.86}
# The unsure band (both kept, the newer marked newer for the agent): a change said about
# a shared word or subject up to this far under the floor.
_UNSURE_BELOW = 0.03
MIN_SIMILARITY = min(_SIMILAR.values()) - _UNSURE_BELOW


def load_changes(path: str | Path | None = None) -> ChangeReader:
    """The vocabulary in `path` (default: the bundled `change_terms.json`), read with the
    bundled profile schema and subjects; loaded once per file."""
    return _load(Path(path) if path is not None else _DEFAULT_PATH)


@lru_cache(maxsize=4)
def _load(path: Path) -> ChangeReader:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ChangeTermsError(f"{path}: cannot read the change terms: {exc}") from exc
    if not isinstance(data, dict):
        raise ChangeTermsError(f"{path}: the change terms must be a JSON object")
    return ChangeReader(data, schema=load_schema(), subjects=load_subjects(), source=str(path))


__all__ = [
    "MIN_SIMILARITY",
    "ChangeReader",
    "ChangeTermsError",
    "Reading",
    "Verdict",
    "load_changes",
]
