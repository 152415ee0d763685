"""Flight, train and hotel candidates for planning, behind one interface.

Two providers: `demo` (bundled, made-up, deterministic) and `http` (a company's
travel-management API; see docs/inventory_http.md); the composition root opens the one
`INVENTORY_PROVIDER` names (`bot.compose.parts.open_inventory`).
"""

from __future__ import annotations

from bot.planning.inventory.base import (
    FlightOption,
    HotelOption,
    InventoryError,
    InventoryProvider,
    Option,
    TrainOption,
)
from bot.planning.inventory.catalogue import Catalogue, City, load_catalogue

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
]
