"""The one HTTP application (`app`) on which channels mount their routes, its ASGI helpers
(`asgi`) and the uvicorn server (`server`)."""
