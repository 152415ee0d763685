"""DingTalk, one chat channel among several: the robot (`robot`) fed by Stream mode
(`stream`) or HTTP mode (`http`), messages parsed (`incoming`) and answered through the
reply sink (`sink`) over the session webhook or the OpenAPI (`delivery`, `api`), commands
and buttons (`commands`, `actions`, `preferences`, `trips`, `cards`). Only this package
imports `dingtalk_stream`."""
