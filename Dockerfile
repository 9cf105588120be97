# Debrief in a container: `docker build -t debrief .`, then see docs/running.md, "Docker".
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DEBRIEF_DB=/data/debrief.db \
    DEBRIEF_TRANSCRIPTS=/transcripts \
    DEBRIEF_PORT=3000

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY handlers ./handlers
COPY store ./store
COPY manifest.yml manifest.http.yml manifest.zoom.json ./
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin debrief \
    && mkdir -p /data /transcripts \
    && chown debrief:debrief /data \
    && chmod 700 /data

USER debrief
VOLUME ["/data", "/transcripts"]
EXPOSE 3000

# GET /healthz answers 200 `ok` once Slack took the token, 503 `starting: …` until then
# (Slack unreachable: the process stays up and keeps trying). Socket Mode answers it too,
# on --port. Unhealthy is not dead: Docker restarts only a process that exits.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os,urllib.request as u; u.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('DEBRIEF_PORT','3000'), timeout=4)"]

CMD ["sh", "-c", "exec debrief serve --host 0.0.0.0 --port \"$DEBRIEF_PORT\""]
