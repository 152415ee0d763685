"""A newer fact supersedes an older one said in free words only when it is a change of
mind: the offline decision on the change pairs (dev: tuned on; held-out and fresh: never
tuned on), per language. `bench/changes.py` measures the same through `Memory.record`,
alone and among a traveller's other facts, and with a scripted fast model."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import pytest

from memory.changes import ChangeTermsError, load_changes
from memory.decision import comparable, relation
from memory.embedding import shared_local_embedder
from memory.profile import load_schema
from memory.types import MemoryItem

PAIRS = Path(__file__).with_name("change_pairs")


def decided(old_text: str, new_text: str) -> str:
    """What `Memory.record` does offline with the newer fact, given only the older one."""
    schema = load_schema()
    old, new = schema.detect(old_text), schema.detect(new_text)
    read = {name: getattr(old, name) for name in ("slot", "value", "polarity", "scope") if old}
    stored = MemoryItem("old", "t", old_text, "chat", datetime.now(UTC), **read)
    a, b = shared_local_embedder().embed_passages([old_text, new_text])
    if new is not None and relation(schema, stored, new) == "replaces":
        # a preferred/avoided flip read as a narrower case given up is only marked
        flip = old is not None and old.slot != new.slot
        narrower = load_changes().weigh(old_text, new_text, float(a @ b)) == ("unsure", 2)
        return "marked" if flip and narrower else "supersedes"
    if not comparable(schema, stored, new):
        return "both"
    one_choice = old is not None and new is not None and schema.slot(new.slot).kind == "multi"
    verdict = load_changes().verdict(old_text, new_text, float(a @ b), one_choice=one_choice)
    return {"replaces": "supersedes", "unsure": "marked"}.get(verdict or "", "both")


@cache
def rates(half: str, lang: str) -> tuple[float, float, float, tuple[str, ...]]:
    """(share of changes superseded; share superseded or marked newer, so the agent is told
    which is newer; share of the others kept, marked or not; the misses)."""
    pairs = json.loads((PAIRS / f"{half}.json").read_text(encoding="utf-8"))["pairs"]
    mine = [p for p in pairs if p["lang"] == lang]
    got = {(p["old"], p["new"]): decided(p["old"], p["new"]) for p in mine}
    changes = [p for p in mine if p["expect"] == "supersedes"]
    others = [p for p in mine if p["expect"] == "both"]
    misses = tuple(
        f"{p['old']} -> {p['new']} (expected {p['expect']})"
        for p in mine
        if got[(p["old"], p["new"])] != p["expect"]
    )
    superseded = sum(got[(p["old"], p["new"])] == "supersedes" for p in changes) / len(changes)
    told = sum(got[(p["old"], p["new"])] != "both" for p in changes) / len(changes)
    kept = sum(got[(p["old"], p["new"])] != "supersedes" for p in others) / len(others)
    return superseded, told, kept, misses


# Floors of (superseded, told newer). Since round 6 (bench/README.md) a change whose newer
# fact narrows the shared thing or is about another activity on it is only marked newer,
# never replaced ("High floor" -> "a low floor is better, I hate waiting for lifts"), so
# the agent is told which is newer without a preference being replaced at a guess.
# Measured after round 6: dev 0.952 / 1.000 (en), 0.952 / 0.952 (zh); held-out 0.850 /
# 0.900, 0.850 / 0.950; fresh 0.583 / 0.667, 0.750 / 0.750; every other pair kept. A little
# room for vocabulary changes, none for keeping fewer complementary pairs.
FLOORS = {"dev": (0.9, 0.9), "heldout": (0.8, 0.85), "fresh": (0.55, 0.6)}
# Round 2 (bench/README.md): new dev pairs (dev2, tuned on), held-out pairs written before
# round 2's changes (heldout2) and fresh probes written after them (fresh2), smaller
# halves. After round 6: dev2 0.900 / 1.000 (en), 1.000 / 1.000 (zh); heldout2 0.667 /
# 0.750, 0.833 / 0.917; fresh2 0.333 / 0.500, 0.500 / 0.500; every other pair kept.
ROUND_2_FLOORS = {"dev2": (0.85, 0.95), "heldout2": (0.6, 0.7), "fresh2": (0.3, 0.45)}


@pytest.mark.parametrize("half", sorted(FLOORS | ROUND_2_FLOORS))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_changes_are_superseded_and_the_others_kept(half: str, lang: str) -> None:
    superseded, told, kept, misses = rates(half, lang)
    least_superseded, least_told = (FLOORS | ROUND_2_FLOORS)[half]
    assert kept == 1.0, misses
    assert superseded >= least_superseded, misses
    assert told >= least_told, misses


def test_every_half_covers_each_language_and_kind() -> None:
    for half in FLOORS:
        pairs = json.loads((PAIRS / f"{half}.json").read_text(encoding="utf-8"))["pairs"]
        for lang in ("en", "zh"):
            mine = [p for p in pairs if p["lang"] == lang]
            assert {p["kind"] for p in mine} == {"change", "scoped", "complement", "unrelated"}
            assert sum(p["kind"] == "change" for p in mine) >= 12


def test_a_malformed_vocabulary_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "terms.json"
    bad.write_text(json.dumps({"change": {"en": ["now"]}}), encoding="utf-8")
    with pytest.raises(ChangeTermsError, match=r"terms\.json"):
        load_changes(bad)
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ChangeTermsError, match="cannot read"):
        load_changes(bad)


# Round 4 (bench/README.md): dev pairs of non-changes that look like changes (dev3: potential
# complements, 还是 / "rather", "no more than", a reversed stance on another object; tuned
# on) and fresh probes of the same kinds written after the detector was frozen (fresh3):
# every lookalike kept; changes dev3 1.000 / 1.000, fresh3 0.583 (en) / 0.583 (zh) after
# round 6 (0.667 / 0.500 at round 4).
ROUND_4_FLOORS = {"dev3": 0.75, "fresh3": 0.4}


@pytest.mark.parametrize("half", sorted(ROUND_4_FLOORS))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_round_4_lookalikes_are_kept_and_changes_superseded(half: str, lang: str) -> None:
    superseded, _, kept, misses = rates(half, lang)
    assert kept == 1.0, misses
    assert superseded >= ROUND_4_FLOORS[half], misses


# Round 6 (bench/README.md): dev pairs (dev4, tuned on) of changes whose newer fact shares
# no word with the older one (only marked newer, never replaced) and of lookalikes on
# another activity or a narrower case of a shared thing: lookalikes kept 8/8 (en) and 7/8
# (zh) pair by pair here. (Its changes are marked newer by the engine's aspect comparison
# among a person's facts, 0.700 in both languages in `bench/changes.py`; pair by pair, as
# here, 0.100 / 0.200: tests/memory/test_changes.py checks the marks through retrieve().)
def test_round_6_lookalikes_on_another_activity_are_not_replaced() -> None:
    for lang in ("en", "zh"):
        _, _, kept, misses = rates("dev4", lang)
        assert kept == 1.0, misses  # zh 7/8 until round 7 ("照片不洗出来了")


# Round 7 (bench/README.md): dev pairs (dev5, tuned on) of giving-up words ("I'm done with",
# 就算了, 受够了), 不…了 around another verb and narrower cases given up; fresh4 and fresh5,
# reported blind before, tuned on since. Every lookalike kept; dev5 changes superseded
# 0.714 in both languages pair by pair after round 7.
@pytest.mark.parametrize("half", ["dev5", "fresh4", "fresh5"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_round_7_narrower_cases_given_up_are_not_replaced(half: str, lang: str) -> None:
    superseded, _, kept, misses = rates(half, lang)
    assert kept == 1.0, misses
    if half == "dev5":
        assert superseded >= 0.7, misses


# Round 8 (bench/README.md): dev pairs (dev6, tuned on) of the blind fresh summary-recall
# run's wrong replacements (an allergy lost to "最近在学吉他，手指头疼死了", a preference to
# "reading a lot of ... lately") and lookalikes of their kinds: no lookalike is replaced
# pair by pair (the allergies beside health chatter are only marked newer), and the
# changes among them still replace.
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_round_8_a_change_word_about_something_else_replaces_nothing(lang: str) -> None:
    superseded, _, kept, misses = rates("dev6", lang)
    assert kept == 1.0, misses
    assert superseded >= 0.6, misses  # en 5/5, zh 2/3 ("吉他现在不学了，改学尤克里里" marked)


# Round 9 (bench/README.md): dev pairs (dev7, tuned on) of named choices (airlines, hotel
# chains, booking sites, board sports), "don't bother"/懒得, kinds of holiday given up,
# brands left with "used to"/以前, switches in several Chinese clauses, and lookalikes of
# a narrower part of the same name given up: every lookalike kept, every English change
# superseded; in Chinese three changes of an older fact limited to a season or to
# domestic flights stay unreplaced (two only marked), as a general change of a scoped fact.
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_round_9_named_choices_and_narrower_parts_of_them(lang: str) -> None:
    superseded, told, kept, misses = rates("dev7", lang)
    assert kept == 1.0, misses
    assert superseded >= (1.0 if lang == "en" else 0.75), misses
    assert told >= (1.0 if lang == "en" else 0.9), misses


# Round 10 (bench/README.md): dev pairs (dev8, tuned on) of memberships dropped for another
# programme, names no list holds, 以后 right after a word, morning to midday and centre to
# airport in new words, and lookalikes (a membership beside a choice, 以后 as "after"): in
# English the agent is told which is newer for every change, and "Afternoon meetings work
# better for me now" still replaces "I like morning flights" (a change word on the shared
# time of day: a meeting is not told from a flight); in Chinese "丽枫" -> "喆啡" (hotel
# names no list or shape reads) stays unmarked pair by pair.
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_round_10_memberships_unlisted_names_and_yihou(lang: str) -> None:
    superseded, told, kept, misses = rates("dev8", lang)
    assert kept >= (0.83 if lang == "en" else 1.0), misses
    assert superseded >= 0.9, misses
    assert told >= (1.0 if lang == "en" else 0.9), misses


# Round 10's precision follow-up (bench/README.md): dev pairs (dev9, tuned on) built to
# stress round 10's rules with lookalikes (以后 as "after" an act, memberships beside a
# choice, names read by shape that are a colleague, a medicine, headphones, a pet
# carrier, a second brand added): every lookalike kept pair by pair; in "I've dropped
# Hyatt, I stay at the Standard these days" the scope reader takes "the Standard" for a
# place, so that English change stays unreplaced.
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_round_10_lookalikes_of_its_own_rules(lang: str) -> None:
    superseded, told, kept, misses = rates("dev9", lang)
    assert kept == 1.0, misses
    assert superseded >= (0.8 if lang == "en" else 1.0), misses
    assert told >= (0.8 if lang == "en" else 1.0), misses


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_round_24_a_companions_liking_is_not_reversed_by_the_writers_own(lang: str) -> None:
    # "老伴爱拍照" stays beside "拍照我不喜欢被拍，老伴拍就行"; "老伴现在不爱拍照了" replaces it.
    superseded, _, kept, misses = rates("dev12", lang)
    assert kept == 1.0 and superseded == 1.0, misses


# Round 16 (bench/README.md): changes said in everyday words ("I've given Uber up", "any
# longer", "as of this year", "这两年", "住怕了") and lookalikes beside them, a meal among
# them ("晚饭不吃了" is no change of "早餐喜欢吃西式的"). Measured pair by pair after round 16:
# en 13/16 superseded and told; zh 5/7, 5/7; every lookalike kept (main: en 4/16, zh 1/7,
# zh lookalikes 4/5).
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_round_16_changes_said_in_everyday_words(lang: str) -> None:
    superseded, told, kept, misses = rates("dev13", lang)
    assert kept == 1.0, misses
    assert superseded >= (0.8 if lang == "en" else 0.7), misses
    assert told >= (0.8 if lang == "en" else 0.7), misses
