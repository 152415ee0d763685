"""`python -m bot`: the `travel-bot` command line (`bot.cli`)."""

from __future__ import annotations

import sys

from bot.cli import main

if __name__ == "__main__":
    sys.exit(main())
