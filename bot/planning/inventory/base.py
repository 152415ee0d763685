"""What an inventory provider answers: bookable flight, train and hotel offers.

Each offer is one thing a traveller could book (a flight in one cabin, a train in one
seat class, a hotel at one rate), so scoring can tell a business seat from a second-class
seat on the same train.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Literal, Protocol

from bot.planning.inventory.catalogue import Catalogue, City

Cabin = Literal["economy", "premium_economy", "business", "first"]
SeatClass = Literal["business_seat", "first_class", "second_class"]

# Local departure times from 22:00 up to 06:00 make a red-eye.
RED_EYE_FROM_HOUR = 22
RED_EYE_UNTIL_HOUR = 6


class InventoryError(Exception):
    """The inventory could not answer (unreachable, refused, or malformed)."""


@dataclass(frozen=True, slots=True)
class FlightOption:
    id: str
    carrier: str  # IATA airline code, e.g. "MU"
    flight_number: str
    origin: str  # airport code
    destination: str
    depart: datetime  # local time at the origin
    arrive: datetime  # local time at the destination
    stops: int
    via: str | None  # connecting airport code
    cabin: Cabin
    price: int  # CNY, whole yuan

    kind = "flight"

    @property
    def service(self) -> str:
        """The flight itself, whatever the cabin."""
        return f"{self.flight_number}@{self.depart:%Y%m%d%H%M}"

    @property
    def red_eye(self) -> bool:
        hour = self.depart.hour
        return hour >= RED_EYE_FROM_HOUR or hour < RED_EYE_UNTIL_HOUR

    @property
    def sort_key(self) -> tuple[Any, ...]:
        return (self.depart, self.price)


@dataclass(frozen=True, slots=True)
class TrainOption:
    id: str
    train_number: str  # "G1234" (high-speed) or "D2345" (EMU)
    origin_station: str  # in the traveller's language when the provider knows it
    destination_station: str
    depart: datetime
    arrive: datetime
    seat_class: SeatClass
    price: int

    kind = "train"

    @property
    def service(self) -> str:
        """The train itself, whatever the seat class."""
        return f"{self.train_number}@{self.depart:%Y%m%d%H%M}"

    @property
    def sort_key(self) -> tuple[Any, ...]:
        return (self.depart, self.price)


@dataclass(frozen=True, slots=True)
class HotelOption:
    id: str
    brand: str  # brand id of the profile schema, e.g. "ji_hotel", or the provider's own
    name: str
    district: str
    checkin: date
    checkout: date
    breakfast: bool
    price_per_night: int
    tier: str  # "economy", "midscale", "upscale_mid", "upscale", "luxury"

    kind = "hotel"

    @property
    def service(self) -> str:
        """The hotel itself, whatever the rate."""
        return self.name

    @property
    def nights(self) -> int:
        return max((self.checkout - self.checkin).days, 1)

    @property
    def sort_key(self) -> tuple[Any, ...]:
        return (self.price_per_night, self.name)


Option = FlightOption | TrainOption | HotelOption


class InventoryProvider(Protocol):
    """Where candidates come from; `demo` says whether they are made up."""

    name: str
    demo: bool

    def flights(self, origin: City, destination: City, day: date) -> list[FlightOption]: ...

    def trains(
        self, origin: City, destination: City, day: date, *, lang: str = "en"
    ) -> list[TrainOption]: ...

    def hotels(
        self, city: City, checkin: date, checkout: date, *, lang: str = "en"
    ) -> list[HotelOption]: ...


_CABIN_NAMES = {
    "economy": ("economy", "经济舱"),
    "premium_economy": ("premium economy", "超级经济舱"),
    "business": ("business", "商务舱"),
    "first": ("first", "头等舱"),
}
_SEAT_NAMES = {
    "business_seat": ("business seat", "商务座"),
    "first_class": ("first class", "一等座"),
    "second_class": ("second class", "二等座"),
}


def describe(option: Option, catalogue: Catalogue, lang: str) -> str:
    """One short line naming a candidate, for the model and for people."""
    zh = lang == "zh"
    if isinstance(option, FlightOption):
        if option.stops == 0:
            stops = "直飞" if zh else "nonstop"
        else:
            stops = f"经{option.via}中转" if zh else f"{option.stops} stop via {option.via}"
        red = ("，红眼" if zh else ", red-eye") if option.red_eye else ""
        day = "+1" if option.arrive.date() > option.depart.date() else ""
        return (
            f"{catalogue.carrier_name(option.carrier, lang)} {option.flight_number} "
            f"{option.origin}-{option.destination} "
            f"{option.depart:%H:%M}-{option.arrive:%H:%M}{day} {stops}{red}, "
            f"{_CABIN_NAMES[option.cabin][zh]}, CNY {option.price}"
        )
    if isinstance(option, TrainOption):
        return (
            f"{option.train_number} {option.origin_station}-{option.destination_station} "
            f"{option.depart:%H:%M}-{option.arrive:%H:%M}, {_SEAT_NAMES[option.seat_class][zh]}, "
            f"CNY {option.price}"
        )
    meal = (
        ("含早" if option.breakfast else "不含早")
        if zh
        else ("breakfast included" if option.breakfast else "room only")
    )
    night = "晚" if zh else "night"
    return f"{option.name}, {meal}, CNY {option.price_per_night}/{night}"
