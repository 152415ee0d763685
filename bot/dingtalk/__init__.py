"""DingTalk, one chat channel among several: its transport (HTTP mode, `http`; Stream mode,
`long_connection`), its parser (`incoming`), its reply sink (`sink`, over the session webhook or
the OpenAPI: `delivery`, `api`) and its widgets (`widgets`, buttons kept as short codes:
`codes`), fed to the core's pipeline by `channel`. Only this package imports
`dingtalk_stream`."""
