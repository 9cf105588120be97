# Debrief in a container: `docker build -t debrief .`, then see the README's "Docker".
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
COPY manifest.yml ./
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin debrief \
    && mkdir -p /data /transcripts \
    && chown debrief:debrief /data

USER debrief
VOLUME ["/data", "/transcripts"]
EXPOSE 3000

# HTTP mode answers GET /healthz; Socket Mode has no port, so there the check passes
# as long as the process runs.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os,sys,urllib.request as u; sys.exit(0) if not os.environ.get('SLACK_SIGNING_SECRET') else u.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('DEBRIEF_PORT','3000'), timeout=4).status == 200 or sys.exit(1)"]

CMD ["sh", "-c", "exec debrief serve --host 0.0.0.0 --port \"$DEBRIEF_PORT\""]
