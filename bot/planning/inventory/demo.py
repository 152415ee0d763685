"""A bundled, deterministic demo catalogue: realistic-looking, entirely made-up offers.

The same route and date always give the same offers (seeded by route and date), so a
plan can be reproduced and tests can rely on it. Every route has morning-to-evening
nonstops, a red-eye (23:30 or 00:45) and a one-stop option; high-speed trains run where
both cities are on the mainland rail network and close enough; every city has economy,
midscale and upscale hotels, each with a room-only and a breakfast-included rate.
Nothing here is bookable; plans built from it must say so.
"""

from __future__ import annotations

import hashlib
import random
from datetime import date, datetime, time, timedelta

from bot.planning.inventory.base import Cabin, FlightOption, HotelOption, SeatClass, TrainOption
from bot.planning.inventory.catalogue import Catalogue, City, load_catalogue

# Departure slots of daytime nonstops, and of the red-eye.
_DAY_SLOTS = ((7, 30), (8, 55), (10, 20), (12, 45), (14, 10), (16, 35), (19, 5), (21, 10))
_RED_EYE_SLOTS = ((23, 30), (0, 45))
_TRAIN_SLOTS = ((6, 48), (8, 0), (9, 15), (11, 30), (13, 5), (15, 40), (17, 20), (19, 0))
_HUBS = ("beijing", "shanghai", "guangzhou", "xian", "chengdu", "wuhan")
_INTL_HUBS = ("beijing", "shanghai", "guangzhou", "hongkong")
_MAX_RAIL_KM = 2100.0  # great-circle distance beyond which no sensible train runs
_TIER_RATE = {"economy": 260, "midscale": 430, "upscale_mid": 620, "upscale": 980, "luxury": 1450}
_DOMESTIC_BRANDS: tuple[str, ...] = ("hanting", "home_inn", "jinjiang", "ji_hotel", "atour")
_DOMESTIC_BRANDS += ("ihg", "hilton", "marriott", "hyatt", "shangri_la")
_INTL_BRANDS = ("ji_hotel", "ihg", "hilton", "marriott", "hyatt", "shangri_la")


def _rng(*parts: object) -> random.Random:
    seed = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return random.Random(int.from_bytes(seed[:8], "big"))


def _round10(value: float) -> int:
    return max(10, round(value / 10) * 10)


class DemoInventory:
    """The `demo` inventory provider."""

    name = "demo"
    demo = True

    def __init__(self, catalogue: Catalogue | None = None) -> None:
        self.catalogue = catalogue or load_catalogue()

    # Flights -----------------------------------------------------------------

    def _flight_hours(self, km: float) -> float:
        return 0.6 + km / 780.0

    def _carriers(self, origin: City, destination: City) -> list[str]:
        pool = list(dict.fromkeys(origin.home_carriers + destination.home_carriers))
        if origin.domestic and destination.domestic:
            pool += [c for c in ("MU", "CA", "CZ", "HU") if c not in pool]
        return pool

    def _fare(self, rng: random.Random, km: float, intl: bool) -> float:
        per_km = 0.62 if not intl else 0.75
        return (260 + km * per_km) * rng.uniform(0.75, 1.35)

    def flights(self, origin: City, destination: City, day: date) -> list[FlightOption]:
        if origin.id == destination.id:
            return []
        rng = _rng("flight", origin.id, destination.id, day.isoformat())
        km = origin.km_to(destination)
        intl = not (origin.domestic and destination.domestic)
        carriers = self._carriers(origin, destination)
        hours = self._flight_hours(km)
        offers: list[FlightOption] = []
        numbers: set[str] = set()
        daytime = rng.sample(_DAY_SLOTS, k=5 if km < 3000 else 3)
        plans: list[tuple[tuple[int, int], int]] = [(slot, 0) for slot in sorted(daytime)]
        plans.append((rng.choice(_RED_EYE_SLOTS), 0))
        plans.append((rng.choice(_DAY_SLOTS[:5]), 1))  # early enough to connect
        for index, ((hour, minute), stops) in enumerate(plans):
            carrier = carriers[(index + rng.randrange(len(carriers))) % len(carriers)]
            depart = datetime.combine(day, time(hour, minute))
            via: str | None = None
            duration = hours
            if stops:
                hubs = _INTL_HUBS if intl else _HUBS
                choices = [h for h in hubs if h not in (origin.id, destination.id)]
                hub = self.catalogue.city_by_id(rng.choice(choices))
                via = hub.airports[0]
                duration = (
                    self._flight_hours(origin.km_to(hub))
                    + self._flight_hours(hub.km_to(destination))
                    + rng.uniform(1.3, 3.0)
                )
            tz_shift = round((destination.lon - origin.lon) / 15) if intl else 0
            arrive = depart + timedelta(hours=duration + tz_shift)
            arrive = arrive.replace(minute=(arrive.minute // 5) * 5, second=0, microsecond=0)
            base = self._fare(rng, km, intl)
            if (hour, minute) in _RED_EYE_SLOTS:
                base *= 0.72
            if stops:
                base *= 0.8
            brand = self.catalogue.carriers.get(carrier)
            low_cost = brand is not None and brand.kind == "low_cost"
            if low_cost:
                base *= 0.7
            number = f"{carrier}{rng.randrange(1000, 9999)}"
            while number in numbers:
                number = f"{carrier}{rng.randrange(1000, 9999)}"
            numbers.add(number)
            origin_airport = rng.choice(origin.airports)
            cabins: list[tuple[Cabin, float]] = [("economy", 1.0)]
            if not low_cost:
                cabins.append(("business", 3.1 if not intl else 3.8))
                if intl and not stops:
                    cabins.append(("premium_economy", 1.7))
            for cabin, factor in cabins:
                offers.append(
                    FlightOption(
                        id=f"F-{number}-{day:%m%d}-{cabin}",
                        carrier=carrier,
                        flight_number=number,
                        origin=origin_airport,
                        destination=destination.airports[0],
                        depart=depart,
                        arrive=arrive,
                        stops=stops,
                        via=via,
                        cabin=cabin,
                        price=_round10(base * factor),
                    )
                )
        return sorted(offers, key=lambda o: o.sort_key)

    # Trains ------------------------------------------------------------------

    def has_rail(self, origin: City, destination: City) -> bool:
        return (
            origin.id != destination.id
            and origin.rail
            and destination.rail
            and origin.km_to(destination) <= _MAX_RAIL_KM
        )

    def trains(
        self, origin: City, destination: City, day: date, *, lang: str = "en"
    ) -> list[TrainOption]:
        if not self.has_rail(origin, destination):
            return []
        assert origin.station is not None and destination.station is not None
        rng = _rng("train", origin.id, destination.id, day.isoformat())
        rail_km = origin.km_to(destination) * 1.25
        offers: list[TrainOption] = []
        for hour, minute in sorted(rng.sample(_TRAIN_SLOTS, k=5)):
            high_speed = rng.random() < 0.75 or rail_km > 1200
            speed = 265.0 if high_speed else 190.0
            number = f"{'G' if high_speed else 'D'}{rng.randrange(10, 2999)}"
            depart = datetime.combine(day, time(hour, minute))
            arrive = depart + timedelta(hours=rail_km / speed + rng.uniform(0.1, 0.5))
            if arrive.date() != day:
                continue  # high-speed trains do not run overnight
            arrive = arrive.replace(minute=(arrive.minute // 5) * 5, second=0, microsecond=0)
            second = (rail_km * (0.46 if high_speed else 0.31)) * rng.uniform(0.95, 1.05)
            classes: list[tuple[SeatClass, float]] = [("second_class", 1.0), ("first_class", 1.6)]
            if high_speed:
                classes.append(("business_seat", 3.15))
            for seat_class, factor in classes:
                offers.append(
                    TrainOption(
                        id=f"T-{number}-{day:%m%d}-{seat_class}",
                        train_number=number,
                        origin_station=origin.station.name(lang),
                        destination_station=destination.station.name(lang),
                        depart=depart,
                        arrive=arrive,
                        seat_class=seat_class,
                        price=_round10(second * factor),
                    )
                )
        return sorted(offers, key=lambda o: o.sort_key)

    # Hotels ------------------------------------------------------------------

    def hotels(
        self, city: City, checkin: date, checkout: date, *, lang: str = "en"
    ) -> list[HotelOption]:
        if checkout <= checkin:
            checkout = checkin + timedelta(days=1)
        rng = _rng("hotel", city.id, checkin.isoformat())
        brands = _DOMESTIC_BRANDS if city.domestic else _INTL_BRANDS
        offers: list[HotelOption] = []
        for index, brand_id in enumerate(brands):
            brand = self.catalogue.hotel_brands[brand_id]
            district = city.districts[(index + rng.randrange(3)) % len(city.districts)]
            name = (
                f"{brand.zh}（{city.zh}{district.zh}店）"
                if lang == "zh"
                else f"{brand.en} {city.en} {district.en}"
            )
            rate = _TIER_RATE[brand.kind] * city.cost_index * rng.uniform(0.85, 1.2)
            breakfast_price = rate * (0.1 if brand.kind in ("economy", "midscale") else 0.14)
            rates = [(False, rate), (True, rate + breakfast_price)]
            if brand.kind == "luxury":
                rates = rates[1:]  # rates here always include breakfast
            for breakfast, price in rates:
                offers.append(
                    HotelOption(
                        id=f"H-{city.id}-{brand_id}-{'bb' if breakfast else 'ro'}",
                        brand=brand_id,
                        name=name,
                        district=district.name(lang),
                        checkin=checkin,
                        checkout=checkout,
                        breakfast=breakfast,
                        price_per_night=_round10(price),
                        tier=brand.kind,
                    )
                )
        return sorted(offers, key=lambda o: o.sort_key)
