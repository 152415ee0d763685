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
