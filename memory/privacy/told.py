"""Round 29: numbers said in chat whose role the words right around them tell (no money).

Asked through `memory.privacy.readings.not_money`, so every amount rule that guesses and the
unexplained layer keep the number; each reading holds only with no money word in its clause
(what a drive costs to run, "60 in tolls", and what is played for money, "500 on roulette",
count as money words):

- a journey one makes oneself, told by its length alone: "the drive to the lake is 45", "the
  walk from the station was 15", "the hike up is 12" (a drive, a walk, a hike, a trek, a climb,
  a cycle, a run, a swim or a commute is not bought; a ride, a taxi or a tour may be, so they
  are left to round 28's reading, which needs the way said after the number);
- what one does, counted by its verb: "played 18 at St Andrews", "I can lift 20 on my own",
  "we dove to 30", "swam 40 lengths" ("paid 18", "spent 20" are verbs of money, not these);
- a depth below the water: "the reef is 20 down", "the dive site is at 30" (a dive, a reef, a
  wreck or a site named in the clause);
- a score out of ten said with "a": "the food there was a 10", "honestly a solid 8" (not of a
  ride bought, "the cab was a 10", nor a person paid, "the guide got a 10", nor "a 10 off");
- a scheduled service's clock time said with "is" or a leaving verb: "the flight is 930", "the
  ferry leaves 745" (three digits on a quarter past, half past or quarter to after "is", on the
  hour too after "is at" — "the flight is 600" is a fare; any clock after "leaves", "departs",
  "lands", "gets in").
"""

from __future__ import annotations

import re

from memory.privacy.vocabulary import (
    COMMA_CLAUSE_END,
    HIRED_RIDES,
    MONEY_TALK,
    MONEY_WORDS,
    RIDES,
    clause_span,
    money_in,
)

F = re.ASCII | re.IGNORECASE

# The shared money words and chat's talk of money (`vocabulary`), and what these readings add:
# a ride rented or hired, a debt or a bet ("owed 40", "won 200", "for the lot"), what a drive
# costs to run and what is played for money ("the drive was 60 in tolls", "played 500 on
# roulette").
_TOLD_MONEY = (
    r"rented|hire[ds]|bet|won|lost|owe[ds]?|tab|for\s+the\s+lot"
    r"|petrol|fuel|diesel|gas(?!\s+stations?)|tolls?(?!\s+roads?)|parking(?!\s+(?:lot|garage)s?)"
    r"|casinos?|roulette|slots|pokies|poker|blackjack|baccarat|craps|gambl(?:e|ed|ing)"
    r"|wager(?:s|ed)?|betting|bets|chips|lottery|jackpot"
)
MONEY_IN_CLAUSE = money_in(MONEY_WORDS, MONEY_TALK, _TOLD_MONEY)

_SELF_MADE = re.compile(
    r"(?<![a-z])(?:drive|walk|hike|trek|climb|cycle|bike\s+ride|run|swim|commute|paddle)"
    r"(?:\s+(?:there|back|home|up|down|over|in|out|(?:to|from|up|down|into|across|along|around"
    r"|through)(?:\s+[a-z']+){1,3}))?"
    r"\s+(?:is|was|'s|takes|took)(?:\s+(?:like|about|around|roughly|only|just|maybe|usually))*"
    r"\s*\Z",
    F,
)
# A hired ride in the clause makes "the drive" bought: "... with the hotel car service".
_HIRED = re.compile(
    rf"(?<![a-z])(?:{HIRED_RIDES}|car\s+service|service|hired?|private)(?![a-z])",
    F,
)
_DONE = re.compile(
    r"(?<![a-z])(?:played|play|lift(?:ed|s)?|carr(?:y|ied)|bench(?:ed)?|squat(?:ted)?|deadlift"
    r"|dove|dived|dive|swam|swim|climbed|scored|shot|bowled|hiked|walked|cycled|biked|paddled"
    r"|rowed|slept|sleep|napped|waited|wait|queued|jumped|surfed|skied|sprinted)"
    r"(?:\s+(?:about|around|like|only|just|over|under|up\s+to|to|down\s+to|maybe))?\s*\Z",
    F,
)
_DIVE_WORDS = re.compile(
    r"(?<![a-z])(?:reefs?|wrecks?|dives?|diving|dove|dived|sites?|depth|snorkel[a-z]*|caves?"
    r"|underwater|freediv[a-z]*|scuba)(?![a-z])",
    F,
)
_DEPTH_BEFORE = re.compile(r"(?<![a-z])(?:at|to)\s+(?:about\s+|around\s+)?\Z", F)
_DEPTH_AFTER = re.compile(r"\s*(?:down|deep|below)(?![a-z])(?!\s+(?:from|to)(?![a-z]))", F)
# A score is no tip, change or fare: "the cab was a 10", "the guide got a 10", "a 10 off".
_SCORE_PAID = re.compile(
    rf"(?<![a-z])(?:{RIDES}|rides?|fares?)(?![a-z])"
    r"|(?<![a-z])(?:drivers?|guides?|waiters?|waitress|porters?|bell(?:boy|hop)s?|maids?|valets?"
    r"|staff|barbers?|buskers?|him|her|them)\s+(?:gets?|got|deserves?)\s+(?:a\s+)?a\s+\Z",
    F,
)
_SCORE_AFTER_PAID = re.compile(r"\s+(?:off|back|note|tip|change)(?![a-z])", F)
_SCORE_BEFORE = re.compile(
    r"(?<![a-z])(?:is|was|'s|were|are|gets?|got|deserves?|give\s+it|gave\s+it|solid|easy"
    r"|strong|honest|honestly)\s+(?:a\s+)?(?:solid\s+|strong\s+|easy\s+)?a\s+\Z",
    F,
)
_SERVICE = (
    r"(?<![a-z])(?:flight|plane|train|bus|coach|ferry|boat|shuttle|tram|sleeper)(?![a-z])"
    r"(?:\s+(?:home|back|out|there|(?:from|to)\s+[a-z]+))?"
)
_SERVICE_IS = re.compile(rf"{_SERVICE}\s+(?:is|'s)\s+(?:at\s+)?\Z", F)
_SERVICE_LEAVES = re.compile(
    rf"{_SERVICE}\s+(?:leaves|departs|lands|arrives|gets\s+in|boards|goes)\s+(?:at\s+)?\Z", F
)
# After a bare "is", three digits on the hour are a fare ("the flight is 600"), not 6:00.
_QUARTER_CLOCK = re.compile(r"[1-9](?:15|30|45)|(?:0[0-9]|1[0-9]|2[0-3])(?:00|15|30|45)")
_AT_CLOCK = re.compile(r"[1-9](?:00|15|30|45)|(?:0[0-9]|1[0-9]|2[0-3])(?:00|15|30|45)")
_SAID_AT = re.compile(r"(?<![a-z])at\s+\Z", F)
_ANY_CLOCK = re.compile(r"[1-9][0-5][0-9]|(?:[01][0-9]|2[0-3])[0-5][0-9]")


def departure_time(text: str, start: int, number: str) -> bool:
    """Whether the number after a scheduled service is its clock time (module docstring)."""
    low = max(0, start - 40)
    if _SERVICE_LEAVES.search(text, low, start):
        return _ANY_CLOCK.fullmatch(number) is not None
    if _SERVICE_IS.search(text, low, start) is None:
        return False
    clock = _AT_CLOCK if _SAID_AT.search(text, low, start) else _QUARTER_CLOCK
    return clock.fullmatch(number) is not None


def _score(text: str, start: int, end: int, first: int) -> bool:
    """A score out of ten said with "a", of no ride bought and given to no one paid."""
    return (
        _SCORE_BEFORE.search(text, max(0, start - 30), start) is not None
        and _SCORE_PAID.search(text, first, start) is None
        and _SCORE_AFTER_PAID.match(text, end) is None
    )


def told_not_money(text: str, start: int, end: int, number: str) -> bool:
    """Whether the bare number text[start:end] is a length, a count done, a depth, a score or
    a clock time by the words right around it, with no money word in its clause."""
    if not number.isdigit():
        return False
    value = int(number)
    low = max(0, start - 60)
    first, last = clause_span(COMMA_CLAUSE_END, text, start, end)
    self_made = _SELF_MADE.search(text, low, start) and not _HIRED.search(text, first, last)
    read = bool(
        (value <= 600 and self_made)
        or (value <= 500 and _DONE.search(text, max(0, start - 30), start))
        or (
            value <= 120
            and (_DEPTH_AFTER.match(text, end) or _DEPTH_BEFORE.search(text, low, start))
            and _DIVE_WORDS.search(text, low, min(len(text), end + 30))
        )
        or (value <= 10 and _score(text, start, end, first))
        or departure_time(text, start, number)
    )
    return read and MONEY_IN_CLAUSE.search(text, first, last) is None


__all__ = ["MONEY_IN_CLAUSE", "departure_time", "told_not_money"]
