"""Warming the preference cache before trips: one pass (`warmer`) and the clock that runs
it every interval (`scheduler`)."""
