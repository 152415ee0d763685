"""Flight, train and hotel candidates for planning, behind one interface.

`open_inventory(settings)` returns the configured provider: `demo` (bundled, made-up,
deterministic) or `http` (a company's travel-management API; see docs/inventory_http.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.planning.inventory.base import (
    FlightOption,
    HotelOption,
    InventoryError,
    InventoryProvider,
    Option,
    TrainOption,
)
from bot.planning.inventory.catalogue import Catalogue, City, load_catalogue

if TYPE_CHECKING:
    from bot.settings import Settings


def open_inventory(settings: Settings) -> InventoryProvider:
    """The provider `INVENTORY_PROVIDER` names."""
    if settings.inventory_provider == "http":
        from bot.planning.inventory.http import HttpInventory

        return HttpInventory.from_settings(settings)
    from bot.planning.inventory.demo import DemoInventory

    return DemoInventory()


__all__ = [
    "Catalogue",
    "City",
    "FlightOption",
    "HotelOption",
    "InventoryError",
    "InventoryProvider",
    "Option",
    "TrainOption",
    "load_catalogue",
    "open_inventory",
]
