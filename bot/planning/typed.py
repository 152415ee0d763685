"""A planned trip's cities in the words the traveller used.

The model passes `plan_itinerary` a city in whatever form it likes ("Chengdu" for a
traveller who wrote 成都). Trips are matched by the catalogue's name and keep the city as
typed to show back (`bot.planning.trips`, migration 3); a plan saved from chat kept the
model's form as "typed". `in_travellers_words` puts the traveller's own form back: when
their message names the same catalogue city (the same canonical key) in another form, the
plan carries that form, so what is shown, offered and saved reads as they wrote it.

Only a city's own names count (its English and Chinese names and aliases, two characters
or more; no airport code nor Latin abbreviation such as "SH"), a Latin name as a whole
word in any case, and none that is part of a street's or a gate's name (南京路 in
Shanghai, 西安门 and 长安街 in Beijing, "Nanjing Road"). The city's name itself ("成都",
"成都市", "Chengdu") comes before its other aliases, which also name its airports and
districts ("Heathrow", 浦东, 长安): "伦敦，希思罗机场进" is a trip to 伦敦. Among those, the
first the message uses, and at one place the longest ("成都市" over "成都"). An unknown
city, or a message that does not name it, leaves the plan as it was.
"""

from __future__ import annotations

import dataclasses
import re

from bot.names import fold_name
from bot.planning.inventory.catalogue import City, load_catalogue
from bot.planning.plan import PlannedTrip

_LATIN = re.compile(r"[A-Za-z]")
# What follows a city's name when it names a street or a gate instead (南京路, 西安门).
_NOT_THE_CITY_ZH = r"(?![路街门道])"
_NOT_THE_CITY_EN = r"(?!\s+(?:road|rd|street|st|avenue|ave|gate)\b)"


def in_travellers_words(trip: PlannedTrip, said: str) -> PlannedTrip:
    """`trip` with its destination and origin as `said` names them, where it does."""
    if not said.strip():
        return trip
    destination = _as_said(trip.destination, said)
    origin = _as_said(trip.origin, said) if trip.origin else trip.origin
    if destination == trip.destination and origin == trip.origin:
        return trip
    return dataclasses.replace(trip, destination=destination, origin=origin)


def _as_said(name: str, said: str) -> str:
    catalogue = load_catalogue()
    city = catalogue.city(name)
    if city is None:
        return name
    own = {fold_name(city.en), fold_name(city.zh)}
    found: list[tuple[bool, int, int]] = []  # (an alias, start, -length)
    for form in _forms(city):
        for match in _pattern(form).finditer(said):
            alias = fold_name(form) not in own
            found.append((alias, match.start(), match.start() - match.end()))
    for _, start, negative_length in sorted(found):
        typed = said[start : start - negative_length]
        if catalogue.city(typed) is city:
            return " ".join(typed.split())
    return name


def _forms(city: City) -> set[str]:
    codes = {city.iata.upper(), *(code.upper() for code in city.airports)}
    forms = {city.en, city.zh, *city.aliases}
    # Two characters or more, and no code: an airport's, or a Latin abbreviation ("SH").
    return {
        f
        for f in forms
        if len(f.strip()) >= 2
        and f.strip().upper() not in codes
        and not (f.isascii() and len(f.strip()) <= 3)
    }


def _pattern(form: str) -> re.Pattern[str]:
    text = re.escape(form.strip()).replace(r"\ ", r"\s+")
    if _LATIN.search(form):  # a whole word: "Xian" is not in "Xianyang"
        return re.compile(rf"(?<![A-Za-z]){text}(?![A-Za-z]){_NOT_THE_CITY_EN}", re.IGNORECASE)
    return re.compile(text + _NOT_THE_CITY_ZH)


__all__ = ["in_travellers_words"]
