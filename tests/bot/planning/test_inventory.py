"""The city catalogue, the bundled demo inventory and the JSON-over-HTTP provider."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.planning.inventory import InventoryError, load_catalogue
from bot.planning.inventory.demo import DemoInventory
from bot.planning.inventory.http import HttpInventory

DAY = date(2026, 12, 10)


@pytest.mark.parametrize(
    ("text", "city_id"),
    [
        ("上海", "shanghai"),
        ("Shanghai", "shanghai"),
        ("SHANGHAI", "shanghai"),
        ("上海市", "shanghai"),
        ("沪", "shanghai"),
        ("pvg", "shanghai"),
        ("Xi'an", "xian"),
        ("xian", "xian"),
        ("成都", "chengdu"),
        (" chengdu ", "chengdu"),
        ("Peking", "beijing"),
        ("香港", "hongkong"),
        ("Hong Kong", "hongkong"),
        ("新加坡", "singapore"),
        ("Tokyo", "tokyo"),
        ("纽约", "newyork"),
    ],
)
def test_cities_are_found_in_chinese_english_aliases_and_codes(text: str, city_id: str) -> None:
    city = load_catalogue().city(text)
    assert city is not None and city.id == city_id


def test_unknown_cities_are_not_guessed() -> None:
    catalogue = load_catalogue()
    assert catalogue.city("Gotham") is None
    assert catalogue.city("") is None


def test_catalogue_covers_major_chinese_cities_and_international_hubs() -> None:
    cities = load_catalogue().cities
    assert sum(1 for c in cities if c.domestic) >= 12
    assert sum(1 for c in cities if c.country not in ("CN",)) >= 6
    for city in cities:
        assert city.zh and city.en and city.iata and city.airports and city.districts


def test_demo_offers_are_deterministic_per_route_and_date() -> None:
    demo = DemoInventory()
    sha, ctu = demo.catalogue.city("上海"), demo.catalogue.city("成都")
    assert sha is not None and ctu is not None
    assert demo.flights(sha, ctu, DAY) == demo.flights(sha, ctu, DAY)
    assert demo.flights(sha, ctu, DAY) != demo.flights(sha, ctu, date(2026, 12, 11))
    assert demo.flights(sha, ctu, DAY) != demo.flights(ctu, sha, DAY)


def test_every_demo_route_has_nonstops_a_red_eye_and_a_one_stop() -> None:
    demo = DemoInventory()
    catalogue = demo.catalogue
    known = set(catalogue.carriers)
    for a, b in [("北京", "上海"), ("深圳", "成都"), ("Shanghai", "London"), ("广州", "三亚")]:
        origin, destination = catalogue.city(a), catalogue.city(b)
        assert origin is not None and destination is not None
        flights = demo.flights(origin, destination, DAY)
        assert any(f.red_eye for f in flights), (a, b)
        assert any(f.stops == 1 and f.via for f in flights), (a, b)
        assert any(f.stops == 0 and not f.red_eye for f in flights), (a, b)
        assert {f.carrier for f in flights} <= known
        assert all(f.arrive > f.depart and f.price > 0 for f in flights)
        red_eye_times = {f.depart.strftime("%H:%M") for f in flights if f.red_eye}
        assert red_eye_times <= {"23:30", "00:45"}


def test_domestic_carriers_are_the_real_chinese_airlines() -> None:
    demo = DemoInventory()
    carriers: set[str] = set()
    cities = [c for c in demo.catalogue.cities if c.domestic]
    for origin in cities[:6]:
        for destination in cities[6:12]:
            carriers |= {f.carrier for f in demo.flights(origin, destination, DAY)}
    assert {"MU", "CA", "CZ", "HU", "3U"} <= carriers


def test_high_speed_rail_runs_only_where_rail_exists() -> None:
    demo = DemoInventory()
    c = demo.catalogue.city
    beijing, shanghai, sanya, singapore = c("北京"), c("上海"), c("三亚"), c("新加坡")
    assert beijing and shanghai and sanya and singapore
    trains = demo.trains(beijing, shanghai, DAY, lang="zh")
    assert {t.seat_class for t in trains} == {"business_seat", "first_class", "second_class"}
    assert all(t.train_number[0] in "GD" for t in trains)
    assert {t.origin_station for t in trains} == {"北京南"}
    assert all(t.arrive.date() == DAY for t in trains)  # no overnight high-speed trains
    assert demo.trains(shanghai, sanya, DAY) == []
    assert demo.trains(shanghai, singapore, DAY) == []


def test_hotels_of_common_brands_with_and_without_breakfast() -> None:
    demo = DemoInventory()
    chengdu = demo.catalogue.city("成都")
    assert chengdu is not None
    hotels = demo.hotels(chengdu, DAY, date(2026, 12, 12), lang="zh")
    assert {"ji_hotel", "atour", "hanting", "hilton", "marriott"} <= {h.brand for h in hotels}
    assert {h.breakfast for h in hotels} == {True, False}
    assert any(h.name.startswith("全季") for h in hotels)
    assert all(h.nights == 2 for h in hotels)


# The HTTP provider against a local server that answers the documented contract.


class _InventoryServer:
    def __init__(self, answer: Callable[[str, dict[str, str]], tuple[int, Any]]) -> None:
        self.answer = answer
        self.requests: list[tuple[str, dict[str, str], str | None]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                path = parts.path.rsplit("/", 1)[-1]
                owner.requests.append((path, query, self.headers.get("Authorization")))
                status, body = owner.answer(path, query)
                data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/api/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def inventory_server() -> Iterator[Callable[..., _InventoryServer]]:
    servers: list[_InventoryServer] = []

    def start(answer: Callable[[str, dict[str, str]], tuple[int, Any]]) -> _InventoryServer:
        server = _InventoryServer(answer)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


FLIGHT = {
    "id": "mu5401",
    "carrier": "MU",
    "flight_number": "MU5401",
    "origin": "PVG",
    "destination": "CTU",
    "depart": "2026-12-10T08:00",
    "arrive": "2026-12-10T11:05",
    "stops": 0,
    "cabin": "economy",
    "price": 1180,
}


def test_http_provider_follows_the_contract(inventory_server: Callable[..., Any]) -> None:
    def answer(path: str, query: dict[str, str]) -> tuple[int, Any]:
        if path == "flights":
            return 200, {"flights": [FLIGHT, {**FLIGHT, "id": "bad", "depart": "tomorrow"}]}
        if path == "trains":
            row = {
                "id": "g7",
                "train_number": "G7",
                "origin_station": "上海虹桥",
                "destination_station": "成都东",
                "depart": "2026-12-10T07:00",
                "arrive": "2026-12-10T15:00",
                "seat_class": "first_class",
                "price": 1500,
            }
            return 200, {"trains": [row]}
        row = {
            "id": "h1",
            "brand": "atour",
            "name": "亚朵",
            "breakfast": True,
            "price_per_night": 480,
        }
        return 200, {"hotels": [row, {"id": "h2", "brand": "x", "name": "y"}]}

    server = inventory_server(answer)
    inventory = HttpInventory(base_url=server.url, api_key="k-test")
    c = load_catalogue().city
    sha, ctu = c("上海"), c("成都")
    assert sha is not None and ctu is not None
    try:
        flights = inventory.flights(sha, ctu, DAY)
        trains = inventory.trains(sha, ctu, DAY, lang="zh")
        hotels = inventory.hotels(ctu, DAY, date(2026, 12, 12), lang="zh")
    finally:
        inventory.close()
    assert [f.flight_number for f in flights] == ["MU5401"]  # the malformed row is skipped
    assert [t.seat_class for t in trains] == ["first_class"]
    assert [(h.brand, h.breakfast, h.nights) for h in hotels] == [("atour", True, 2)]
    path, query, auth = server.requests[0]
    assert (path, query) == (
        "flights",
        {"origin": "SHA", "destination": "CTU", "date": "2026-12-10"},
    )
    assert auth == "Bearer k-test"
    assert server.requests[2][1] == {
        "city": "CTU",
        "checkin": "2026-12-10",
        "checkout": "2026-12-12",
        "lang": "zh",
    }


def test_http_provider_errors_are_inventory_errors(inventory_server: Callable[..., Any]) -> None:
    answers = iter([(500, {"error": "down"}), (200, "not json"), (404, {}), (200, {"x": 1})])
    server = inventory_server(lambda path, query: next(answers))
    inventory = HttpInventory(base_url=server.url)
    c = load_catalogue().city
    sha, ctu = c("上海"), c("成都")
    assert sha is not None and ctu is not None
    try:
        with pytest.raises(InventoryError, match="HTTP 500"):
            inventory.flights(sha, ctu, DAY)
        with pytest.raises(InventoryError, match="JSON"):
            inventory.flights(sha, ctu, DAY)
        assert inventory.flights(sha, ctu, DAY) == []  # 404: no such route
        with pytest.raises(InventoryError, match="'flights'"):
            inventory.flights(sha, ctu, DAY)
    finally:
        inventory.close()
    unreachable = HttpInventory(base_url="http://127.0.0.1:9/", timeout=1.0)
    with pytest.raises(InventoryError, match="unreachable"):
        unreachable.flights(sha, ctu, DAY)
    unreachable.close()
