"""City tiers: which tier a city is in, by any of its names, in Chinese or English.

The bundled tiers (`tiers.json`: China's tier-1, new tier-1 and tier-3 cities, and two
tiers of major world cities) apply unless a policy lists a tier itself: a tier the policy
lists is exactly its list, and a city the policy names anywhere takes the policy's tier.
Names are compared the way the planner's catalogue compares them (case, width,
spaces and punctuation, and a trailing 市 / "City" do not matter), and a name the
bundled list knows in one language is known in the other too ("成都" is "Chengdu").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources

from bot.names import fold_name

OTHER = "other"  # the tier of every city no tier names
fold = fold_name  # a city name as compared: "Xi'an", "xian" and "XIAN 市" are one


@cache
def bundled() -> dict[str, tuple[tuple[str, ...], ...]]:
    """The bundled tiers: tier name -> each city's names (English, Chinese)."""
    text = resources.files(__package__).joinpath("tiers.json").read_text("utf-8")
    data = json.loads(text)
    return {
        tier: tuple(tuple(str(n) for n in names) for names in cities)
        for tier, cities in data.items()
        if not tier.startswith("_")
    }


@cache
def _twins() -> dict[str, tuple[str, ...]]:
    """Folded name -> every name of that city the bundled list knows."""
    found: dict[str, tuple[str, ...]] = {}
    for cities in bundled().values():
        for names in cities:
            for name in names:
                found[fold(name)] = names
    return found


def twins(name: str) -> tuple[str, ...]:
    """Every name of the city `name` names that the bundled list knows (() if none)."""
    return _twins().get(fold(name), ())


class Tiers:
    """Tier lookups for one policy: its own lists, then the bundled ones it keeps."""

    def __init__(self, own: Mapping[str, Sequence[str]], *, use_bundled: bool = True) -> None:
        self.own = {tier: tuple(names) for tier, names in own.items()}
        self._own: dict[str, str] = {}
        for tier, names in self.own.items():
            for name in names:
                for known in (name, *_twins().get(fold(name), ())):
                    self._own.setdefault(fold(known), tier)
        self._bundled: dict[str, str] = {}
        if use_bundled:
            for tier, cities in bundled().items():
                if tier in self.own:
                    continue
                for names in cities:
                    for name in names:
                        self._bundled.setdefault(fold(name), tier)

    @property
    def names(self) -> tuple[str, ...]:
        """Every tier a city can be in (the policy's, the bundled ones kept, `other`)."""
        return (*dict.fromkeys([*self.own, *sorted(set(self._bundled.values()))]), OTHER)

    def tier_of(self, names: Iterable[str]) -> str:
        """The tier of the city known by `names` (all its names: the policy's lists win)."""
        folded = [fold(n) for n in names if n and n.strip()]
        for index in (self._own, self._bundled):
            for name in folded:
                if name in index:
                    return index[name]
        return OTHER

    def cities(self, tier: str, lang: str = "en") -> tuple[str, ...]:
        """The cities of `tier`: as the policy writes them, or the bundled ones in `lang`."""
        if tier in self.own:
            return self.own[tier]
        found = bundled().get(tier, ()) if tier in self._bundled.values() else ()
        return tuple(
            names[1 if lang == "zh" else 0]
            for names in found
            if fold(names[0]) not in self._own and fold(names[1]) not in self._own
        )


__all__ = ["OTHER", "Tiers", "bundled", "fold", "twins"]
