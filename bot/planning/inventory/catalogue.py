"""The cities, carriers and hotel brands the inventory knows (`catalogue.json`).

Cities are looked up by Chinese or English name, common aliases or IATA codes,
case-insensitively: "上海", "shanghai", "沪", "PVG" and "上海市" are all Shanghai.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from bot.names import fold_name

_key = fold_name  # how names are compared (bot.names)


@dataclass(frozen=True, slots=True)
class Place:
    """A name in both languages (a station, a district)."""

    en: str
    zh: str

    def name(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True, slots=True)
class City:
    id: str
    en: str
    zh: str
    iata: str
    airports: tuple[str, ...]
    country: str
    rail: bool
    lat: float
    lon: float
    cost_index: float
    station: Place | None
    districts: tuple[Place, ...]
    home_carriers: tuple[str, ...]
    aliases: tuple[str, ...]

    def name(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    @property
    def domestic(self) -> bool:
        """Mainland China (the high-speed rail network's home)."""
        return self.country == "CN"

    def km_to(self, other: City) -> float:
        """Great-circle distance."""
        p1, p2 = math.radians(self.lat), math.radians(other.lat)
        dp, dl = p2 - p1, math.radians(other.lon - self.lon)
        a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
        return 2 * 6371.0 * math.asin(math.sqrt(a))


@dataclass(frozen=True, slots=True)
class Brand:
    """An airline or a hotel brand; `kind` is the carrier model or the hotel tier."""

    id: str
    en: str
    zh: str
    kind: str

    def name(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


class Catalogue:
    def __init__(self, data: Mapping[str, Any]) -> None:
        self.cities: tuple[City, ...] = tuple(_city(raw) for raw in data["cities"])
        self.carriers = {
            code: Brand(code, raw["en"], raw["zh"], raw["model"])
            for code, raw in data["carriers"].items()
        }
        self.hotel_brands = {
            bid: Brand(bid, raw["en"], raw["zh"], raw["tier"])
            for bid, raw in data["hotel_brands"].items()
        }
        self._index: dict[str, City] = {}
        for city in self.cities:
            names = (city.id, city.en, city.zh, city.iata, *city.airports, *city.aliases)
            for name in names:
                self._index.setdefault(_key(name), city)

    def city(self, text: str) -> City | None:
        """The city `text` names, or None."""
        return self._index.get(_key(text)) if text and text.strip() else None

    def city_by_id(self, city_id: str) -> City:
        for city in self.cities:
            if city.id == city_id:
                return city
        raise KeyError(city_id)

    def examples(self, lang: str, count: int = 8) -> list[str]:
        """A few known city names, for error messages."""
        return [city.name(lang) for city in self.cities[:count]]

    def carrier_name(self, code: str, lang: str) -> str:
        brand = self.carriers.get(code)
        return brand.name(lang) if brand else code

    def hotel_brand_name(self, brand_id: str, lang: str) -> str:
        brand = self.hotel_brands.get(brand_id)
        return brand.name(lang) if brand else brand_id


def _city(raw: Mapping[str, Any]) -> City:
    station = raw.get("station")
    return City(
        id=raw["id"],
        en=raw["en"],
        zh=raw["zh"],
        iata=raw["iata"],
        airports=tuple(raw["airports"]),
        country=raw["country"],
        rail=bool(raw["rail"]),
        lat=float(raw["lat"]),
        lon=float(raw["lon"]),
        cost_index=float(raw["cost_index"]),
        station=Place(station["en"], station["zh"]) if station else None,
        districts=tuple(Place(d["en"], d["zh"]) for d in raw["districts"]),
        home_carriers=tuple(raw["home_carriers"]),
        aliases=tuple(raw.get("aliases", ())),
    )


@cache
def load_catalogue() -> Catalogue:
    """The bundled catalogue (read once per process, on first use)."""
    text = resources.files("bot.planning.inventory").joinpath("catalogue.json").read_text("utf-8")
    return Catalogue(json.loads(text))
