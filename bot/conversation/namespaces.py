"""Which strings can name a person's memory: the namespace shapes of the platforms given.

A namespace comes from a platform's one rule (`bot.platform.Platform.key`, every id
escaped by `platform_id`), so its shape is the platform's (`Platform.owns`). A command line
checks `--user` against the shapes of every platform it knows, so a typo is refused instead
of creating an empty person.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.platform import MAX_ID_CHARS, Platform, platform_id
from memory.errors import InvalidNamespace
from memory.intake import check_namespace


def namespace_problem(namespace: str, platforms: Sequence[Platform]) -> str | None:
    """Why `namespace` cannot name a person of any of `platforms`, or None when it can.

    Beyond its shape, whatever memory would refuse (`memory.intake.check_namespace`: a
    lone surrogate, control or format characters, too long) is refused here too.
    """
    try:
        if check_namespace(namespace) != namespace:
            return f"{namespace!r} is not a namespace: it is not in Unicode NFC form"
    except InvalidNamespace as exc:
        return f"{namespace!r} is not a namespace: {exc}"
    if any(platform.owns(namespace) for platform in platforms):
        return None
    examples = ", ".join(platform.example for platform in platforms)
    return f"{namespace!r} is not a namespace; expected one like {examples}"


__all__ = ["MAX_ID_CHARS", "namespace_problem", "platform_id"]
