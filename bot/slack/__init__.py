"""Slack, one chat channel among several: the Bolt app (`app`) with its transport (the HTTP
route, `http`; Socket Mode, `long_connection`), its parser (`incoming`), its reply sink
(`sink`) and its widgets (`views/`), fed to the core's pipeline by `channel` and the
listeners (`listeners/`). Only this package imports `slack_bolt` or `slack_sdk`."""
