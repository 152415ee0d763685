"""Feishu (Lark), one chat channel among several: its transport (the HTTP route, `http`,
`POST /feishu/events`; the long connection, `long_connection`, `travel-bot feishu`; both
feed the SDK's dispatcher, `events`), its parser (`incoming`), its reply sink with card
streaming (`sink`, `streaming`) and its widgets (`widgets`, made of `cards`), fed to the
core's pipeline by `channel`; the turn's questions are `turns`, the open API `api`. Only
this package imports `lark_oapi`."""
