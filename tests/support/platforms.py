"""Each channel's `Platform` by name, for tests that build the core's messages by hand."""

from __future__ import annotations

from bot.channels import DINGTALK, FEISHU, SLACK
from bot.platform import Platform

BY_NAME: dict[str, Platform] = {p.name: p for p in (SLACK, FEISHU, DINGTALK)}

__all__ = ["BY_NAME", "DINGTALK", "FEISHU", "SLACK"]
