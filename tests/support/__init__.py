"""What the tests share, in one place.

- Doubles for the boundaries the tests cannot run for real: `llm_server.ScriptedModel`
  (an OpenAI-compatible chat-completions endpoint) and `slack_api.FakeSlackAPI` (the
  Slack Web API, with `slack_socket` for Socket Mode), both on `http.LocalServer`; and
  `bailian_api.FakeBailian` (Bailian's memory API, with its failure modes).
- `services`: the real PostgreSQL and Redis, and how tests leave them clean.
- `slack_harness.BotHarness`: the real Bolt app behind the real HTTP server, spoken to
  with signed requests; `slack_payloads`: Slack's interactivity payloads for it.
"""
