"""Slack, one chat channel among several: the Bolt app (`app`), its HTTP route (`http`)
and Socket Mode (`socket_mode`), events as incoming messages (`incoming`), the reply
sink (`sink`), listeners and Block Kit views. Only this package imports `slack_bolt` or
`slack_sdk`."""
