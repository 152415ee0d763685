"""The `http` inventory provider: a company's travel-management API over JSON.

The contract (paths, parameters, fields) is documented in docs/inventory_http.md.
Rows that do not match it are skipped, so one bad offer never hides the others.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import date, datetime
from typing import Any, TypeVar, cast, get_args

import httpx

from bot.planning.inventory.base import (
    Cabin,
    FlightOption,
    HotelOption,
    InventoryError,
    SeatClass,
    TrainOption,
)
from bot.planning.inventory.catalogue import City

log = logging.getLogger(__name__)

T = TypeVar("T")
_CABINS = frozenset(get_args(Cabin))
_SEAT_CLASSES = frozenset(get_args(SeatClass))


class HttpInventory:
    """GET `{base_url}/flights`, `/trains`, `/hotels` with a bearer key."""

    name = "http"
    demo = False

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str | None = None,
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if not base_url:
            raise ValueError("INVENTORY_HTTP_URL must be set for the http inventory provider")
        headers = {"Accept": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._client = httpx.Client(
            base_url=base_url.rstrip("/") + "/",
            headers=headers,
            timeout=timeout,
            transport=transport,
        )

    def _get(self, path: str, params: Mapping[str, str], field: str) -> list[Any]:
        try:
            response = self._client.get(path, params=params)
        except httpx.HTTPError as exc:
            raise InventoryError(f"inventory {path} unreachable: {type(exc).__name__}") from exc
        if response.status_code == 404:
            return []  # the provider knows no such route or city
        if response.status_code >= 400:
            raise InventoryError(f"inventory {path} answered HTTP {response.status_code}")
        try:
            body = response.json()
        except ValueError as exc:
            raise InventoryError(f"inventory {path} answered something other than JSON") from exc
        rows = body.get(field) if isinstance(body, dict) else None
        if not isinstance(rows, list):
            raise InventoryError(f"inventory {path} answer has no {field!r} list")
        return rows

    def flights(self, origin: City, destination: City, day: date) -> list[FlightOption]:
        rows = self._get(
            "flights",
            {"origin": origin.iata, "destination": destination.iata, "date": day.isoformat()},
            "flights",
        )
        return _parse_all(rows, _flight, "flight")

    def trains(
        self, origin: City, destination: City, day: date, *, lang: str = "en"
    ) -> list[TrainOption]:
        params = {
            "origin": origin.iata,
            "destination": destination.iata,
            "date": day.isoformat(),
            "lang": lang,
        }
        return _parse_all(self._get("trains", params, "trains"), _train, "train")

    def hotels(
        self, city: City, checkin: date, checkout: date, *, lang: str = "en"
    ) -> list[HotelOption]:
        params = {
            "city": city.iata,
            "checkin": checkin.isoformat(),
            "checkout": checkout.isoformat(),
            "lang": lang,
        }
        rows = self._get("hotels", params, "hotels")
        return _parse_all(rows, lambda row: _hotel(row, checkin, checkout), "hotel")

    def close(self) -> None:
        self._client.close()


def _parse_all(rows: list[Any], parse: Callable[[Mapping[str, Any]], T], kind: str) -> list[T]:
    out: list[T] = []
    skipped = 0
    for row in rows:
        try:
            if not isinstance(row, Mapping):
                raise TypeError("not an object")
            out.append(parse(row))
        except (KeyError, TypeError, ValueError):
            skipped += 1
    if skipped:
        log.warning("inventory: skipped %d malformed %s row(s)", skipped, kind)
    return out


def _text(row: Mapping[str, Any], key: str) -> str:
    value = row[key]
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{key} must be a non-empty string")
    return value.strip()


def _whole(row: Mapping[str, Any], key: str) -> int:
    value = row[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ValueError(f"{key} must be a non-negative number")
    return round(value)


def _flight(row: Mapping[str, Any]) -> FlightOption:
    cabin = row.get("cabin", "economy")
    if cabin not in _CABINS:
        raise ValueError("unknown cabin")
    via = row.get("via")
    return FlightOption(
        id=_text(row, "id"),
        carrier=_text(row, "carrier").upper(),
        flight_number=_text(row, "flight_number"),
        origin=_text(row, "origin"),
        destination=_text(row, "destination"),
        depart=datetime.fromisoformat(_text(row, "depart")),
        arrive=datetime.fromisoformat(_text(row, "arrive")),
        stops=_whole(row, "stops") if "stops" in row else 0,
        via=str(via) if via else None,
        cabin=cast(Cabin, cabin),
        price=_whole(row, "price"),
    )


def _train(row: Mapping[str, Any]) -> TrainOption:
    seat_class = row.get("seat_class")
    if seat_class not in _SEAT_CLASSES:
        raise ValueError("unknown seat class")
    return TrainOption(
        id=_text(row, "id"),
        train_number=_text(row, "train_number"),
        origin_station=_text(row, "origin_station"),
        destination_station=_text(row, "destination_station"),
        depart=datetime.fromisoformat(_text(row, "depart")),
        arrive=datetime.fromisoformat(_text(row, "arrive")),
        seat_class=cast(SeatClass, seat_class),
        price=_whole(row, "price"),
    )


def _hotel(row: Mapping[str, Any], checkin: date, checkout: date) -> HotelOption:
    breakfast = row.get("breakfast")
    if not isinstance(breakfast, bool):
        raise ValueError("breakfast must be true or false")
    return HotelOption(
        id=_text(row, "id"),
        brand=_text(row, "brand"),
        name=_text(row, "name"),
        district=str(row.get("district") or ""),
        checkin=checkin,
        checkout=checkout,
        breakfast=breakfast,
        price_per_night=_whole(row, "price_per_night"),
        tier=str(row.get("tier") or "midscale"),
    )
