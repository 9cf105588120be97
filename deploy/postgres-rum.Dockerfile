# PostgreSQL for Debrief's replicas: the official image with the RUM extension its search
# needs (docs/running.md, "Several replicas"). `docker build -f deploy/postgres-rum.Dockerfile -t postgres-rum deploy/`
FROM postgres:15
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-15-rum && rm -rf /var/lib/apt/lists/*
