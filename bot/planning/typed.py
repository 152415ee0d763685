"""A planned trip's cities in the words the traveller used.

The model passes `plan_itinerary` a city in whatever form it likes ("Chengdu" for a
traveller who wrote 成都). Trips are matched by the catalogue's name and keep the city as
typed to show back (`bot.planning.trips`, migration 3); a plan saved from chat kept the
model's form as "typed". `in_travellers_words` puts the traveller's own form back: when
their message names the same catalogue city (the same canonical key) in another form, the
plan carries that form, so what is shown, offered and saved reads as they wrote it.

Only a city's own names count (its English and Chinese names and aliases, two characters
or more; no airport code nor Latin abbreviation such as "SH"), a Latin name as a whole
word in any case, the longest first ("成都市" over "成都"). An unknown city, or a message
that does not name it, leaves the plan as it was.
"""

from __future__ import annotations

import dataclasses
import re

from bot.planning.inventory.catalogue import City, load_catalogue
from bot.planning.plan import PlannedTrip

_LATIN = re.compile(r"[A-Za-z]")


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
    found: list[tuple[int, int]] = []
    for form in _forms(city):
        for match in _pattern(form).finditer(said):
            found.append((match.start(), match.end()))
    # The longest form the message uses, the first of them; the same city by the catalogue.
    for start, end in sorted(found, key=lambda span: (span[0] - span[1], span[0])):
        typed = said[start:end]
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
        return re.compile(rf"(?<![A-Za-z]){text}(?![A-Za-z])", re.IGNORECASE)
    return re.compile(text)


__all__ = ["in_travellers_words"]
