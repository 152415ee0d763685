"""The flows' fixtures: the approval desk (trips, policies, approvals) on a real SQLite
file and a real PostgreSQL schema, and a clock a test moves, as the policy tests have."""

from __future__ import annotations

from tests.bot.policy.conftest import clock, make_desk

__all__ = ["clock", "make_desk"]
