"""The shared HTTP host: the one application (`app`) on which channels mount their routes,
its ASGI helpers (`asgi`), what every channel's callback route shares (`routes`), the
uvicorn server (`server`) with its guards for connections and bodies (`connections`,
`bodies`), and throttled log lines (`notices`). The preferences site is `bot.web`."""
