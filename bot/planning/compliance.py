"""The travel policy in a plan: each candidate in or out of policy, in-policy ones first.

`Compliance` checks a leg's scored candidates against the traveller's `Allowance`
(their grade's rules, `bot.policy.rules`), in the planner's own option types: a hotel
against its city's cap per night, a flight against the cabin for its length (estimated
from the great-circle distance: offers carry local times only), its airline and how far
ahead it is booked, a train seat against the rail class.

`order` keeps each candidate's preference score and puts in-policy options first; the
best out-of-policy option is still shown, marked, when it scores at least
`MUCH_BETTER` above the best in-policy one, and when a leg has no in-policy option at
all its best out-of-policy ones are shown, marked. Without a policy nothing here runs
and planning is as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from bot.messages import t
from bot.planning.inventory.base import FlightOption, HotelOption, Option, TrainOption
from bot.planning.inventory.catalogue import Catalogue, City, load_catalogue
from bot.planning.scoring import Scored
from bot.policy.rules import Allowance, Break, Named, summarise
from bot.policy.tiers import fold

MUCH_BETTER = 20  # score points above the best in-policy option
CRUISE_KMH = 800.0  # for a flight's length: distance / speed + taxi and climb
GROUND_HOURS = 0.5


@dataclass(frozen=True, slots=True)
class Marked:
    """A scored candidate with the rules it breaks (none: in policy)."""

    scored: Scored
    breaks: tuple[Break, ...] = ()
    shown_anyway: bool = False  # out of policy, shown for being much better

    @property
    def in_policy(self) -> bool:
        return not self.breaks


@dataclass
class Compliance:
    """Marks the candidates of one plan (one traveller, one route, one booking day)."""

    allowance: Allowance
    catalogue: Catalogue
    origin: City
    destination: City
    today: date  # the day it is booked, in the traveller's time zone
    lang: str = "en"
    top: int = 5
    seen: list[Break] = field(default_factory=list)  # every break found, for the summary
    checked: int = 0  # candidates checked
    out: int = 0  # candidates out of policy

    def mark(self, option: Option) -> tuple[Break, ...]:
        if isinstance(option, HotelOption):
            found = self.allowance.hotel(self._city(self.destination), option.price_per_night)
        elif isinstance(option, FlightOption):
            found = self.allowance.flight(
                option.cabin,
                hours=self.flight_hours(),
                airline=self._airline(option.carrier),
                days_ahead=(option.depart.date() - self.today).days,
                preferred=self._preferred(),
            )
        elif isinstance(option, TrainOption):
            found = self.allowance.train(option.seat_class)
        else:  # pragma: no cover - every option kind is above
            found = []
        return tuple(found)

    def order(self, scored: Sequence[Scored]) -> tuple[list[Marked], str | None]:
        """The leg's options to list, in order, and a note for the leg (or None)."""
        marked = [Marked(s, self.mark(s.option)) for s in scored]
        self.checked += len(marked)
        self.out += sum(1 for m in marked if not m.in_policy)
        self.seen += [b for m in marked for b in m.breaks]
        inside = _distinct([m for m in marked if m.in_policy])
        outside = _distinct([m for m in marked if not m.in_policy])
        if not inside:
            note = t("policy_none_in_policy", self.lang) if outside else None
            return outside[: self.top], note
        best = inside[: self.top]
        if outside and outside[0].scored.score >= inside[0].scored.score + MUCH_BETTER:
            star = Marked(outside[0].scored, outside[0].breaks, shown_anyway=True)
            best = [*inside[: self.top - 1], star]
        return best, None

    def summary(self) -> dict[str, object]:
        """How many options were out of policy and why, in the traveller's language."""
        lang, grade = self.lang, self.allowance.grade
        if self.out:
            why = ("；" if lang == "zh" else "; ").join(summarise(self.seen, lang))
            total = self.checked
            text = t("policy_out_of_policy", lang, out=self.out, total=total, grade=grade, why=why)
        else:
            text = t("policy_all_in_policy", lang, total=self.checked, grade=grade)
        return {
            "grade": grade,
            "policy_version": self.allowance.version,
            "out_of_policy": self.out,
            "options": self.checked,
            "summary": text,
            "rule": (
                "In-policy options are listed first. An option marked out of policy can only "
                "be booked with a reason and an approver's approval; say so when you offer it."
            ),
        }

    def flight_hours(self) -> float:
        return self.origin.km_to(self.destination) / CRUISE_KMH + GROUND_HOURS

    def _city(self, city: City) -> Named:
        return Named(city.en, city.zh, (city.id, city.iata, *city.airports, *city.aliases))

    def _airline(self, code: str) -> Named:
        brand = self.catalogue.carriers.get(code)
        return Named(brand.en, brand.zh, (code,)) if brand else Named(code, code, (code,))

    def _preferred(self) -> tuple[Named, ...]:
        """The policy's preferred airlines by name in both languages, where known."""
        named = []
        for text in self.allowance.policy.preferred_airlines:
            code = airline_code(text, self.catalogue)
            named.append(self._airline(code) if code else Named(text, text))
        return tuple(named)


def city_named(catalogue: Catalogue, text: str) -> Named | None:
    """The catalogue's city `text` names, by every name it goes by; None if unknown."""
    city = catalogue.city(text)
    if city is None:
        return None
    return Named(city.en, city.zh, (city.id, city.iata, *city.airports, *city.aliases))


def airline_code(text: str, catalogue: Catalogue | None = None) -> str | None:
    """The code of the airline `text` names ("东航", "China Eastern", "MU" -> "MU")."""
    known = catalogue or load_catalogue()
    wanted = fold(text)
    for code, brand in known.carriers.items():
        if wanted in (fold(code), fold(brand.en), fold(brand.zh)):
            return str(code)
    return None


def _distinct(marked: Sequence[Marked]) -> list[Marked]:
    """The best-scored offer of each flight, train or hotel (cabins, seats and rates of
    one service are alternatives), in the order given."""
    seen: set[str] = set()
    out = []
    for m in marked:
        if m.scored.option.service not in seen:
            seen.add(m.scored.option.service)
            out.append(m)
    return out


__all__ = ["MUCH_BETTER", "Compliance", "Marked", "airline_code", "city_named"]
