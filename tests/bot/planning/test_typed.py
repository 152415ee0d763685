"""A planned trip's cities in the traveller's own words (`bot.planning.typed`)."""

from __future__ import annotations

from datetime import date

import pytest

from bot.planning.plan import PlannedTrip
from bot.planning.trips import canonical_city
from bot.planning.typed import in_travellers_words

TRIP = PlannedTrip(origin="Shanghai", destination="Chengdu", start=date(2099, 1, 1), end=None)


@pytest.mark.parametrize(
    ("said", "origin", "destination"),
    [
        ("plan my trip from Shanghai to 成都 next Monday", "Shanghai", "成都"),
        ("帮我规划从上海去成都市的行程", "上海", "成都市"),  # the longest form it uses
        ("plan my trip to chengdu", "Shanghai", "chengdu"),
        ("from Xianyang to Chengdu", "Shanghai", "Chengdu"),  # names the model's form
        ("从 PVG 到 CTU", "Shanghai", "Chengdu"),  # codes are not a city as typed
        ("SH to 蓉", "Shanghai", "Chengdu"),  # nor abbreviations or one character
        ("plan a trip to 重庆", "Shanghai", "Chengdu"),  # another city: left alone
        ("", "Shanghai", "Chengdu"),
    ],
)
def test_the_travellers_form_of_the_same_city_is_kept(
    said: str, origin: str, destination: str
) -> None:
    trip = in_travellers_words(TRIP, said)
    assert (trip.origin, trip.destination) == (origin, destination)
    # Whatever is kept, it is the same trip: same catalogue names, same dates.
    assert canonical_city(trip.destination)[0] == "Chengdu"
    assert canonical_city(trip.origin)[0] == "Shanghai"
    assert (trip.start, trip.end) == (TRIP.start, TRIP.end)


def test_a_city_the_catalogue_does_not_know_is_left_as_the_model_passed_it() -> None:
    odd = PlannedTrip(origin="", destination="Atlantis", start=date(2099, 1, 1), end=None)
    assert in_travellers_words(odd, "take me to atlantis") is odd


def _trip(origin: str, destination: str) -> PlannedTrip:
    return PlannedTrip(origin=origin, destination=destination, start=date(2099, 1, 1), end=None)


@pytest.mark.parametrize(
    ("planned", "said", "shown"),
    [
        # An alias also names an airport or a district, or a street elsewhere: a message
        # naming the city itself as well showed the airport or the street as the city.
        (("Shanghai", "London"), "下周从上海飞伦敦，希思罗机场进", ("上海", "伦敦")),
        (("Beijing", "Xi'an"), "从北京长安街出发，下周去西安出差", ("北京", "西安")),
        (("Shanghai", "Tokyo"), "I land at Narita, then a week in Tokyo", ("Shanghai", "Tokyo")),
        (("Shanghai", "New York"), "New York, staying in Manhattan", ("Shanghai", "New York")),
        (("Shanghai", "Beijing"), "我想去北京吃 Peking duck", ("Shanghai", "北京")),
        (("Chengdu", "Shanghai"), "浦东机场接我，去上海开会，从成都出发", ("成都", "上海")),
        # A city's name inside a street's or a gate's name is not the city.
        (("Shanghai", "Nanjing"), "从南京路出发去金陵", ("Shanghai", "金陵")),
        (("Shanghai", "Nanjing"), "from Nanjing Road to Nanking", ("Shanghai", "Nanking")),
        (("Beijing", "Xi'an"), "住在西安门附近，想去长安看看", ("Beijing", "长安")),
        # An alias alone is still the traveller's word.
        (("Shanghai", "London"), "fly me into Heathrow", ("Shanghai", "Heathrow")),
    ],
)  # fmt: skip
def test_the_city_is_shown_by_its_name_not_by_its_airport_or_a_street(
    planned: tuple[str, str], said: str, shown: tuple[str, str]
) -> None:
    trip = in_travellers_words(_trip(*planned), said)
    assert (trip.origin, trip.destination) == shown
    assert canonical_city(trip.destination)[0] == canonical_city(planned[1])[0]
