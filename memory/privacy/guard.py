"""Checking the facts of one `Memory.record` call together.

`PrivacyGuard.check` gives one verdict per fact: the rules of `memory.privacy.scan`; then the
call's facts read together, so what is split over two of them is refused in both ("my mobile
is 139 1234" … "5678, text before calling", "my wifi password:" … "sunflower77"); then
pieces that only together form a number ("my number starts with 138 0013" … "and ends with
8000", within the call or against the person's stored facts); then, with a reviewer (the
fast model, `memory.privacy.review`), a second opinion on facts the rules pass that hold
digits.

A fact the rules refuse as an amount only because a number in it is unexplained is read by
meaning as well (`memory.privacy.amount_similarity`, round 18): it is kept when it lies
clearly nearer numbers that are not money than amounts. A fact refused as an amount where
nothing names money (no currency, money word or paying verb) and that layer did not keep goes
to a trained classifier (`memory.privacy.amount_classifier`, round 21): heights, rooms and
speed limits the rules read as prices are kept when it is clearly sure they are no money.

Before the reviewer, facts the rules pass are compared by meaning with instruction-shaped
exemplars (`memory.privacy.similarity`, the bundled e5 model): what addresses the assistant
or other people in words no rule lists is refused as "instructions". All of a call's facts
are embedded at once.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

from memory.privacy.amount_classifier import (
    AmountClassifier,
    adjudicable,
    shared_amount_classifier,
)
from memory.privacy.amount_similarity import (
    AmountSimilarity,
    guessed_only,
    shared_amount_similarity,
)
from memory.privacy.categories import Category
from memory.privacy.numbers import ID_NAMES, PIECE, pieces, pieces_shape
from memory.privacy.rules import DIGIT, findings, scan
from memory.privacy.similarity import InstructionSimilarity, shared_similarity
from memory.privacy.text import normalise

_REVIEWS_AT_ONCE = 4
# Verdicts a number found across facts replaces: none, or a piece read as an amount.
_WEAK: tuple[Category | None, ...] = (None, "amount")


# A fact that runs on into the next: it ends in a digit (the next starts with one), or leaves a
# label, a colon or a connector open; or the next starts as a continuation.
_DIGITISH = "0-9零〇一二三四五六七八九幺两"
_ENDS_IN_DIGIT = re.compile(rf"[{_DIGITISH}]\s*\Z")
_STARTS_WITH_DIGIT = re.compile(rf"\A\s*[+({_DIGITISH}]")
_OPEN_END = re.compile(
    r"(?:[:：=#\-–,，、(]|(?<![a-z])(?:is|are|was|were|at|on|to|ends?|ending|starts?|starting"
    r"|begins?|number|no\.?|num|code|pin|password|passcode|pwd|passport|id|card|phone|mobile"
    r"|cell|tel|account|acct|member(?:ship)?|cvv|cvc|expiry|exp|last|first|digits|then|and"
    r"|plus|of|with|like|about|around|under|max)|是|为|号|码|号码|密码|卡号"
    r"|手机|电话|账号|证件号|护照|身份证|尾号|开头|一晚|每晚|人均|大概|大约|约|差不多|不超过|最多"
    r"|前几位|后几位|前半段?|后半段?|接着|然后|和|打|拨|联系我|一共|总共|共计|合计|花了|付了"
    # A rate or a money word left open: "出差每天补贴" … "两百", "hotel budget:" … "680".
    # (a rate or an allowance only: a fact may well end in "budget", "I'm on a tight budget").
    r"|每天|一天|每月|一个月|补贴|补助|津贴|(?<![a-z])(?:allowance|per\s+diem"
    r"|per\s+(?:day|night|month)))\s*\Z",
    re.IGNORECASE,
)
_CONTINUES = re.compile(
    r"\A\s*(?:[,，、:：\-–)]|(?:and|or|but|then|plus|under|below|over|up\s+to|max|at\s+most"
    r"|the\s+(?:last|first|final|remaining)"
    r"|no\s+more|ending|ends|starting|followed|rest|the\s+rest|per|is|are|was|which|ext)"
    r"(?![a-z])|后面|最后(?=[0-9几一二三四五六七八]位)|剩下|其余|然后|再|以及|最多|不超过|不要超过|别超过|以内|尾号|结尾|开头|接着)",
    re.IGNORECASE,
)


# Round 29: facts that each offer a part of one number (`numbers.pieces`: "my passport number
# starts X1234" … "and ends 5678"): when one of them is refused as an identifier, the others go
# with it. A count after a part word ("the last 3 nights", "后面3天") offers no part.
_IDENTIFIERS: tuple[Category, ...] = ("id", "card", "account", "phone", "secret")
# Round 30: a part that names its number right before it ("passport number: starts X1234",
# "card number starts 4929", "手机号开头是139") makes every part of the call that number; a
# document named elsewhere in the fact ("护照放前台，开头的几天住305") names no part.
_NAMES: tuple[tuple[Category, str], ...] = (
    ("id", ID_NAMES),
    ("card", r"(?<![a-z])card(?![a-z])(?:\s*(?:number|no\.?|#))?|卡号"),
    ("phone", r"(?<![a-z])(?:phone|mobile|cell)(?![a-z])(?:\s*(?:number|no\.?|#))?|手机|电话"),
    ("account", r"(?<![a-z])account(?![a-z])(?:\s*(?:number|no\.?|#))?|账号|账户"),
)
_NAMED_PARTS = [
    (category, re.compile(rf"(?:{names})[^.;!?。；！？\n,，]{{0,16}}\Z", re.IGNORECASE))
    for category, names in _NAMES
]


def _named_part(fact: str) -> Category | None:
    text = normalise(fact).text
    for match in PIECE.finditer(text):
        for category, name in _NAMED_PARTS:
            if name.search(text, max(0, match.start() - 40), match.start()):
                return category
    return None


def _parts_of_one(facts: Sequence[str], verdicts: list[Category | None], group: list[int]) -> None:
    offered = [index for index in group if pieces(normalise(facts[index]).text)]
    found = [verdicts[index] for index in offered if verdicts[index] in _IDENTIFIERS]
    if len(offered) > 1 and not found:  # round 30: "passport number: starts X1234" … "the
        # last four are 5678": a part that names the document it belongs to
        found = [named for index in offered if (named := _named_part(facts[index]))]
    if not found:
        return
    for index in offered:
        if verdicts[index] in _WEAK:
            verdicts[index] = found[0]


# A fact that is a number and nothing else ("两万九", "一百三十八", "1.2万", "138") is the value
# of the fact before it: nobody records a bare number as a preference.
_ZH_DIGITS = "0-9零〇一二三四五六七八九两"
_BARE_SCALED = re.compile(
    rf"\A\s*(?:(?:[{_ZH_DIGITS}.]+[十百千万]+)+[{_ZH_DIGITS}]*|[0-9]+(?:\.[0-9]+)?)\s*\Z"
)


# Round 33: a fact that is a price's label and nothing else ("车费", "the fare:") names the
# number of the next fact ("车费" … "从机场过去三十五"): nobody records a label as a preference.
_LABEL_ONLY = re.compile(
    r"\A\s*(?:(?:the|my|our)\s+)?(?:[a-z]+\s+)?(?:fare|price|cost|fee|rate|tip|toll|rent"
    r"|deposit|budget|bill|total)s?\s*[:：]?\s*\Z"
    r"|\A\s*[\u4e00-\u9fff]{0,3}(?:费|价|价格|票价|房价|门票|小费|预算|租金|押金|总价|一共)\s*[:：]?\s*\Z",
    re.IGNORECASE,
)


def _glued(before: str, after: str) -> bool:
    return bool(
        _LABEL_ONLY.match(before)
        or (_ENDS_IN_DIGIT.search(before) and _STARTS_WITH_DIGIT.match(after))
        or _BARE_SCALED.match(after)
        or _OPEN_END.search(before)
        or _CONTINUES.match(after)
    )


class PrivacyReviewer(Protocol):
    """A second opinion on a fact the rules let pass: its category, or None when it is fine
    (or when the reviewer could not tell: then the rules' verdict stands)."""

    def review(self, text: str) -> Category | None: ...


class PrivacyGuard:
    """The rules, the learned reading of guessed amounts and similarity to instructions
    (unless `semantic` is False), pieces across facts and an optional reviewer (see the
    module docstring)."""

    def __init__(
        self,
        *,
        reviewer: PrivacyReviewer | None = None,
        similarity: InstructionSimilarity | None = None,
        amounts: AmountSimilarity | None = None,
        classifier: AmountClassifier | None = None,
        semantic: bool = True,
        read_amounts: bool = True,
        classify_amounts: bool = True,
    ) -> None:
        self.reviewer = reviewer
        self.similarity = similarity or (shared_similarity() if semantic else None)
        # `read_amounts=False`: the guard as it was before round 18 (bench/privacy.py compares).
        learned = semantic and read_amounts
        self.amounts = amounts or (shared_amount_similarity() if learned else None)
        # `classify_amounts=False`: the guard as it was before round 21.
        trained = learned and classify_amounts
        self.classifier = classifier or (shared_amount_classifier() if trained else None)

    def check(
        self, facts: Sequence[str], stored: Callable[[], Iterable[str]] = tuple
    ) -> list[Category | None]:
        """One verdict per fact. `stored` gives the person's remembered facts; it is only
        called when a new fact offers a piece of a number."""
        verdicts: list[Category | None] = [scan(fact) for fact in facts]
        if self.amounts is not None:
            # Round 18: facts refused only by the guess "an unexplained number is an amount"
            # are read by meaning; the joins below still refuse what a call's facts say together.
            guessed = [
                i for i, v in enumerate(verdicts) if v == "amount" and guessed_only(facts[i], v)
            ]
            keeps = self.amounts.keeps([facts[index] for index in guessed])
            for index, kept in zip(guessed, keeps, strict=True):
                if kept:
                    verdicts[index] = None
        if self.classifier is not None:
            # Round 21: amounts nothing names as money, read by the trained classifier.
            decided = [i for i, v in enumerate(verdicts) if adjudicable(facts[i], v)]
            keeps = self.classifier.keeps([facts[index] for index in decided])
            for index, kept in zip(decided, keeps, strict=True):
                if kept:
                    verdicts[index] = None
        if len(facts) > 1 and any(verdict in _WEAK for verdict in verdicts):
            self._join_turn(facts, verdicts)
        self._join_pieces(facts, verdicts, stored)
        if self.similarity is not None:
            passed = [index for index, verdict in enumerate(verdicts) if verdict is None]
            flags = self.similarity.flags([facts[index] for index in passed])
            for index, flagged in zip(passed, flags, strict=True):
                if flagged:
                    verdicts[index] = "instructions"
        reviewer = self.reviewer
        if reviewer is not None:
            asked = [
                index
                for index, fact in enumerate(facts)
                if verdicts[index] is None and DIGIT.search(normalise(fact).text)
            ]
            if asked:  # at once, so a call's wait is one review's timeout, not the sum
                with ThreadPoolExecutor(max_workers=min(len(asked), _REVIEWS_AT_ONCE)) as pool:
                    found = pool.map(lambda index: reviewer.review(facts[index]), asked)
                    for index, category in zip(asked, found, strict=True):
                        verdicts[index] = category
        return verdicts

    @staticmethod
    def _join_turn(facts: Sequence[str], verdicts: list[Category | None]) -> None:
        """Refuse facts that hold part of what the call's facts say together: a number split
        over two facts ("my mobile is 139 1234" … "5678"), a label in one and its value in
        the next ("my wifi password:" … "sunflower77"), a thing and its price ("hotels should
        be cheap" … "under 800 if possible"). Two facts are read as one sentence where one
        runs on into the next (digits on both sides, a label or a colon left open, a next fact
        that starts as a continuation); elsewhere a fact ends its sentence, so a budget word in
        one never owns the number of another. A span found in that text refuses every fact it
        touches; an unlabelled long number counts only with a shape (mobile, card, ID)."""
        glue = [_glued(before, after) for before, after in itertools.pairwise(facts)]
        groups: list[list[int]] = [[0]]
        for index, glued in enumerate(glue, start=1):
            if glued:
                groups[-1].append(index)
            else:
                groups.append([index])
        for group in groups:
            if len(group) < 2 or all(verdicts[index] not in _WEAK for index in group):
                continue
            bounds: list[tuple[int, int]] = []
            position = 0
            for index in group:
                bounds.append((position, position + len(facts[index])))
                position += len(facts[index]) + 1
            joined = normalise(" ".join(facts[index] for index in group))
            for category, start, end in findings(joined.text, guess=False):
                first, last = joined.span(start, end)
                touched = [
                    index
                    for index, (low, high) in zip(group, bounds, strict=True)
                    if low < last and first < high
                ]
                for index in touched:
                    # A number across facts is more specific than a piece read as an amount.
                    if verdicts[index] is None or (
                        len(touched) > 1 and verdicts[index] == "amount" and category != "amount"
                    ):
                        verdicts[index] = category
            _parts_of_one(facts, verdicts, group)

    @staticmethod
    def _join_pieces(
        facts: Sequence[str], verdicts: list[Category | None], stored: Callable[[], Iterable[str]]
    ) -> None:
        """Refuse new facts whose pieces, next to each other or to stored pieces (oldest
        first, then this call's in order), make an ID, card or phone number."""
        new = [
            (index, part)
            for index, fact in enumerate(facts)
            for part in pieces(normalise(fact).text)
        ]
        if not any(verdicts[index] in _WEAK for index, _ in new):
            return
        old = [(None, part) for text in stored() for part in pieces(normalise(text).text)]
        sequence: list[tuple[int | None, str]] = [*old, *new]
        for size in (2, 3):
            for start in range(len(sequence) - size + 1):
                window = sequence[start : start + size]
                found = pieces_shape("".join(part for _, part in window))
                if found is None:
                    continue
                for index, _ in window:
                    if index is not None and verdicts[index] in _WEAK:
                        verdicts[index] = found


__all__ = ["PrivacyGuard", "PrivacyReviewer"]
